import {
  bindSessionsToEnclave,
  createLatchkeyClient,
  type LatchkeyClient,
  LatchkeyError,
  redirectLoginPending,
} from '@latchkey/core'
import { CLIENT_VERSION } from '@latchkey/protocol/constants'
import { isValidAppId } from '@latchkey/protocol/validation'
import { type ReactNode, useContext, useEffect, useLayoutEffect, useMemo } from 'react'
import type { LatchkeyConfig } from './config.ts'
import { configKey, effectiveLoginMethods } from './config-login-methods.ts'
import { hasConnectorHints } from './connector-hint-params.ts'
import { LatchkeyContext } from './context.ts'
import { ModalHost } from './modal/lazy.tsx'
import { createLatchkeyInstance } from './store.ts'

export interface LatchkeyProviderProps {
  /** The app's id: 25 characters, from `latchkey apps create`. */
  appId: string
  /** The Latchkey server's base URL, e.g. `https://auth.example.com`. */
  apiUrl: string
  /** Host-supplied configuration (spec 01 §3); falls back to the server's app configuration. */
  config?: LatchkeyConfig
  children?: ReactNode
}

// Spec 01 §5: only one provider instance may be mounted. Counted in a layout
// effect (not in render) so StrictMode's mount → unmount → mount nets to one.
// Layout effects run children first, so nesting is refused through context instead.
let mountedProviders = 0

/** A provider's answer in the address bar (Google: state + code/error; CloudKit: ckWebAuthToken). */
const mayBeCloudConsentReturn = () => {
  const params = new URLSearchParams(globalThis.location?.search ?? '')
  return (
    (params.has('state') && (params.has('code') || params.has('error'))) ||
    params.has('ckWebAuthToken')
  )
}

// sdk_initialize goes out once per configuration of a client (spec 01 §7),
// however often StrictMode replays effects.
const initializedWith = new WeakMap<LatchkeyClient, string>()

/**
 * Makes Latchkey available to the app: creates the client, restores the
 * session, fetches the app's configuration, and mounts the login modal on
 * first use.
 *
 * @example
 * <LatchkeyProvider appId="clxxxxxxxxxxxxxxxxxxxxxxx" apiUrl="https://auth.example.com"
 *   config={{ appearance: { theme: 'dark' }, loginMethods: ['email'] }}>
 *   <App />
 * </LatchkeyProvider>
 */
export function LatchkeyProvider({ appId, apiUrl, config, children }: LatchkeyProviderProps) {
  // A provider inside another is caught here, at render; siblings by the counter below.
  if (useContext(LatchkeyContext)) throw new LatchkeyError('PROVIDER_ALREADY_MOUNTED')
  if (!isValidAppId(appId)) throw new LatchkeyError('INVALID_APP_ID')
  const key = configKey(config)
  // biome-ignore lint/correctness/useExhaustiveDependencies: keyed on the config's content, so an inline object literal does not count as a new configuration
  const hostConfig = useMemo(() => config ?? {}, [key])
  if (
    (hostConfig.loginMethods || hostConfig.loginMethodsAndOrder) &&
    effectiveLoginMethods(hostConfig, null).length === 0
  )
    throw new LatchkeyError('NO_LOGIN_METHODS')

  const accessTokenCookie = hostConfig.accessTokenCookie === true
  // biome-ignore lint/correctness/useExhaustiveDependencies: one client per app id, server and token storage; later config changes flow through the instance's store
  const instance = useMemo(
    () =>
      createLatchkeyInstance(
        createLatchkeyClient({ appId, apiUrl, accessTokenCookie }),
        hostConfig,
      ),
    [appId, apiUrl, accessTokenCookie],
  )

  useLayoutEffect(() => {
    if (mountedProviders > 0) throw new LatchkeyError('PROVIDER_ALREADY_MOUNTED')
    mountedProviders++
    return () => {
      mountedProviders--
    }
  }, [])

  useLayoutEffect(() => instance.setHostConfig(hostConfig), [instance, hostConfig])

  // Captcha (docs/captcha.md): when the app enables it, login starts ask the
  // captcha for a token. It runs only inside the modal's login flow (or an
  // app's useCaptcha), never for headless hooks; its code and widget load on
  // first use.
  useEffect(() => {
    const { client } = instance
    let installed = false
    const sync = () => {
      const enabled = instance.getUiState().appConfig?.captcha_enabled === true
      if (enabled === installed) return
      installed = enabled
      const captcha = () => import('./modal/captcha/index.ts')
      client.setCaptchaTokenProvider(
        enabled ? () => captcha().then((m) => m.captchaTokenFor(instance)) : null,
        // Spec 01 §8: a refused token resets the captcha, so the next attempt gets a fresh one.
        { onRejected: () => void captcha().then((m) => m.captchaRejectedFor(instance)) },
      )
    }
    sync()
    const unsubscribe = instance.subscribeUi(sync)
    return () => {
      unsubscribe()
      client.setCaptchaTokenProvider(null)
    }
  }, [instance])

  // Key routes answer only to the enclave (docs/security.md): every login
  // binds its session to the enclave's device key. Framing the enclave at
  // mount (once the bridge's code, not on the first chunk, has loaded) has
  // its key ready before the user submits a login. A layout effect:
  // installed before any passive effect (a child's useCustomAuth, the social
  // login return below) can log in.
  useLayoutEffect(() => bindSessionsToEnclave(instance.client), [instance])

  useEffect(() => {
    void instance.client.session.initialize()
    void instance.loadAppConfig()
    // Back in a wallet's in-app browser: the hinted wallet flow resumes (spec 01 §2);
    // its code loads only when the address carries connector hints.
    if (hasConnectorHints(globalThis.location?.search))
      void import('./connector-hints.ts').then(({ startFromConnectorHints }) =>
        startFromConnectorHints(instance),
      )
    // Back from a social or Telegram login: the modal finishes it (its code loads only then).
    if (redirectLoginPending(instance.client.appId))
      void import('./redirect-return.ts').then(({ resumeRedirectLogin }) =>
        resumeRedirectLogin(instance),
      )
    // Back from a Google Drive / iCloud consent: finish the backup or recovery
    // (its code loads only then).
    if (mayBeCloudConsentReturn())
      void import('./cloud.ts').then(({ resumeCloudConsent }) => resumeCloudConsent(instance))
  }, [instance])

  // The embedded Solana wallet as the Wallet Standard wallet "Latchkey"
  // (docs/solana-wallet-standard.md); its code loads after first paint.
  const walletStandard = hostConfig.embeddedWallets?.solana?.walletStandard !== false
  useEffect(() => {
    if (!walletStandard) return
    let detach: (() => void) | null = null
    let unmounted = false
    void import('./solana/register-wallet-standard.ts').then(({ attachWalletStandard }) => {
      if (!unmounted) detach = attachWalletStandard(instance)
    })
    return () => {
      unmounted = true
      detach?.()
    }
  }, [instance, walletStandard])

  // MFA (docs/mfa.md): a wallet action that needs it waits for the user's
  // verification. The prompter's code loads after mount, not with the first
  // chunk: only a wallet action (itself loaded later) can need it.
  useEffect(() => {
    let stop: (() => void) | null = null
    let unmounted = false
    void import('./mfa-prompt.ts').then(({ answerMfaChallenges }) => {
      if (!unmounted) stop = answerMfaChallenges(instance)
    })
    return () => {
      unmounted = true
      stop?.()
    }
  }, [instance])

  // Sessions across tabs (docs/client.md): a logout, login, refresh, link or
  // unlink in another tab of this app shows here without a reload.
  useEffect(() => instance.client.session.syncAcrossTabs(), [instance])

  useEffect(() => {
    const { client } = instance
    if (initializedWith.get(client) === key) return
    initializedWith.set(client, key)
    client.trackEvent('sdk_initialize', {
      version: CLIENT_VERSION,
      loginMethods: hostConfig.loginMethods ?? null,
      theme: hostConfig.appearance?.theme ?? 'light',
    })
  }, [instance, key, hostConfig])

  return (
    <LatchkeyContext.Provider value={instance}>
      {children}
      <ModalHost instance={instance} preload />
    </LatchkeyContext.Provider>
  )
}
