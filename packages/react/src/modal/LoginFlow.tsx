import {
  type AccountTransferInput,
  getRecentLoginMethod,
  LatchkeyError,
  type LoginMethod,
  type User,
} from '@latchkey/core'
import type { OAuthProvider } from '@latchkey/protocol/schemas'
import { useState } from 'react'
import { useUiState } from '../context.ts'
import { useLoginConfig } from '../hooks/useResolvedConfig.ts'
import { useSession } from '../hooks/useSession.ts'
import type { LatchkeyInstance, LoginOptions, LoginResult } from '../instance.ts'
import { useCaptchaScreen } from './captcha/scope.ts'
import { useChrome } from './components/chrome.ts'
import {
  type AttemptedAccount,
  codeFailureScreen,
  errorScreen,
  outcomeScreen,
} from './login-outcome.ts'
import { useEmailLogin } from './methods/email/useEmailLogin.ts'
import { isInAppBrowser } from './methods/oauth/in-app-browser.ts'
import { startOAuthFromModal } from './methods/oauth/OAuthLogin.tsx'
import { isOAuthProvider } from './methods/oauth/providers.tsx'
import { useSmsLogin } from './methods/sms/useSmsLogin.tsx'
import { usePostLogin } from './post-login.ts'
import type { Screen, ScreenName } from './screen.ts'
import { ErrorScreen } from './screens/ErrorScreen.tsx'
import { LoadingScreen } from './screens/LoadingScreen.tsx'
import type { StepContext, StepRenderer, StepRenderers } from './steps/context.ts'
import { crossAppSteps } from './steps/cross-app.tsx'
import { entrySteps } from './steps/entry.tsx'
import { methodSteps } from './steps/methods.tsx'
import { outcomeSteps } from './steps/outcomes.tsx'

export interface LoginFlowProps {
  instance: LatchkeyInstance
  loginOptions: LoginOptions
  /** The login is complete and the post-login sequence has nothing more to show. */
  onFinished(result: LoginResult): void
}

/** Every screen's renderer; the type makes sure none is missing. */
const STEPS: StepRenderers = { ...entrySteps, ...methodSteps, ...crossAppSteps, ...outcomeSteps }

/** The first screen: a redirect login's return, the method asked for, or the landing screen. */
function initialScreen(loginOptions: LoginOptions): Screen {
  const { resume, method } = loginOptions
  if (resume?.kind === 'oauth')
    return { screen: 'oauth', provider: resume.ret.provider, ret: resume.ret }
  if (resume?.kind === 'telegram') return { screen: 'telegram', proof: resume.proof }
  if (loginOptions.crossApp) return { screen: 'cross-app', ...loginOptions.crossApp }
  if (method === 'email') return { screen: 'email-entry' }
  if (method === 'sms') return { screen: 'sms-entry' }
  if (method === 'wallet') return { screen: 'wallet', walletId: loginOptions.wallet }
  if (method === 'farcaster') return { screen: 'farcaster' }
  if (method === 'passkey') return { screen: 'passkey' }
  return { screen: 'landing' }
}

/**
 * Picks the screen to draw: the loading screen until ready, a configuration
 * error if there is one, else the screen the flow has reached. Login logic is
 * core's flows; this only moves between screens, and each screen is drawn by
 * its step (`steps/`).
 */
export function LoginFlow({ instance, loginOptions, onFinished }: LoginFlowProps) {
  const { client } = instance
  const session = useSession(client)
  const ui = useUiState(instance)
  const { appConfig, appConfigError, open } = ui
  // In the dialog (not the standalone panel): closing it is possible, and ends the attempt.
  const inDialog = Boolean(useChrome().onClose)
  // 'connect-or-create' is a login (its wallet rules are in the configuration).
  const intent =
    loginOptions.intent === 'connect-or-create' ? 'login' : (loginOptions.intent ?? 'login')
  // Linking or updating: the user is already logged in, so no post-login sequence.
  const linking = intent !== 'login'
  const [screen, setScreen] = useState<Screen>(() => initialScreen(loginOptions))
  // Spec 01 §2: the invisible captcha runs only on the screens that need it.
  useCaptchaScreen(screen.screen)
  const config = useLoginConfig(
    instance,
    loginOptions,
    'loginMethod' in screen ? screen.loginMethod : null,
  )
  const { prefill } = loginOptions
  const [recentMethod] = useState(() => getRecentLoginMethod(client.storage, client.appId))
  const disableSignup = loginOptions.disableSignup ?? false

  /** Reports a failure (not a transfer offer: that is a question, not an end) and moves on. */
  const report = (error: LatchkeyError, next: Screen | null) => {
    if (next?.screen !== 'account-transfer')
      instance.emitLoginEvent({ type: 'error', code: error.code })
    if (next) setScreen(next)
  }

  /** A code send that failed: under the input when it can say so, else its outcome screen. */
  const sendFailed = (error: LatchkeyError, shownInline: boolean) => {
    instance.emitLoginEvent({ type: 'error', code: error.code })
    if (!shownInline) setScreen(outcomeScreen(error, undefined, linking) ?? errorScreen(error))
  }

  const email = useEmailLogin({
    client,
    disablePlusEmails: config.disablePlusEmails,
    intent,
    current: loginOptions.current,
    disableSignup,
    prefill: prefill?.type === 'email' ? prefill.value : undefined,
    onCodeSent: (address) => setScreen({ screen: 'email-code', email: address }),
    onDone: ({ user, isNewUser }) =>
      setScreen({ screen: 'success', user, isNewUser, loginMethod: 'email' }),
    onFailure: (error, step, address) => {
      if (step === 'send') return sendFailed(error, email.isInlineSendError(error.code))
      const attempt: AttemptedAccount | undefined =
        step === 'submit' ? { loginMethod: 'email', account: { email: address } } : undefined
      report(error, codeFailureScreen(error, attempt, linking))
    },
  })
  const sms = useSmsLogin({
    client,
    config,
    intent:
      intent === 'update'
        ? { type: 'update', oldPhoneNumber: loginOptions.current ?? '' }
        : intent === 'link'
          ? { type: 'link' }
          : { type: 'login', disableSignup },
    prefill: prefill?.type === 'phone' ? prefill.value : undefined,
    recent: recentMethod === 'sms',
    onCodeSent: (phoneNumber, channel) => setScreen({ screen: 'sms-code', phoneNumber, channel }),
    onDone: ({ user, isNewUser }) =>
      setScreen({ screen: 'success', user, isNewUser, loginMethod: 'sms' }),
    onFailure: (error, step, phoneNumber) => {
      if (step === 'send') return sendFailed(error, sms.isInlineSendError(error.code))
      const attempt = { loginMethod: 'sms' as const, account: { phoneNumber } }
      report(error, codeFailureScreen(error, attempt, linking))
    },
  })
  const postLogin = usePostLogin({
    instance,
    config,
    screen,
    setScreen,
    linking,
    dismissed: inDialog && !open,
    onFinished,
  })

  const backToLanding = () => {
    email.reset()
    sms.reset()
    setScreen({ screen: 'landing' })
  }

  /** A method's button on the landing screen or in its overflow. */
  const chooseMethod = (method: LoginMethod) => {
    if (method === 'email') setScreen({ screen: 'email-entry' })
    else if (method === 'sms') setScreen({ screen: 'sms-entry' })
    else if (method === 'telegram') setScreen({ screen: 'telegram', proof: null })
    else if (method === 'wallet') setScreen({ screen: 'wallet' })
    else if (method === 'farcaster') setScreen({ screen: 'farcaster' })
    else if (method === 'passkey') setScreen({ screen: 'passkey' })
    else if (isOAuthProvider(method)) void startOAuth(method)
  }

  // The page leaves for the provider; the return reopens the modal on the 'oauth' screen.
  const startOAuth = async (provider: OAuthProvider) => {
    if (isInAppBrowser()) return setScreen({ screen: 'in-app-browser' })
    const intent = linking ? 'link' : 'login'
    const failure = await startOAuthFromModal(client, { provider, intent, disableSignup })
    if (!failure) return
    const error = new LatchkeyError(failure.code, failure.message)
    report(
      error,
      outcomeScreen(error, undefined, linking) ?? {
        screen: 'oauth',
        provider,
        ret: null,
        startError: failure,
      },
    )
  }

  const loggedIn =
    (loginMethod: LoginMethod) =>
    ({ user, isNewUser }: { user: User; isNewUser: boolean }) =>
      setScreen({ screen: 'success', user, isNewUser, loginMethod })

  const failed =
    (loginMethod: LoginMethod) => (error: LatchkeyError, account?: AccountTransferInput) =>
      report(error, outcomeScreen(error, account ? { loginMethod, account } : undefined, linking))

  const loggingIn = screen.screen === 'success'
  if (!loggingIn && (session.status === 'loading' || (!appConfig && !appConfigError)))
    return <LoadingScreen />
  if (appConfigError && !appConfig)
    return <ErrorScreen code={appConfigError.code} onRetry={() => void instance.loadAppConfig()} />
  if (config.loginMethods.length === 0 && config.crossAppProviders.length === 0)
    return <ErrorScreen code="NO_LOGIN_METHODS" />
  if (config.chainsError)
    return (
      <ErrorScreen
        code={config.chainsError.code}
        values={config.chainsError.id !== undefined ? { id: String(config.chainsError.id) } : {}}
      />
    )

  const ctx: StepContext = {
    instance,
    ui,
    config,
    loginOptions,
    intent,
    linking,
    disableSignup,
    recentMethod,
    email,
    sms,
    postLogin,
    setScreen,
    backToLanding,
    chooseMethod,
    loggedIn,
    failed,
  }
  // The union is matched by name: STEPS[name] takes that name's member of it.
  const step = STEPS[screen.screen] as StepRenderer<ScreenName>
  return step(screen, ctx)
}
