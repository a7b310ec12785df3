import {
  createEmailFlow,
  getRecentLoginMethod,
  type LatchkeyError,
  type LoginMethod,
  type User,
} from '@latchkey/core'
import {
  OAUTH_PROVIDERS,
  POST_LOGIN_DELAY_MS,
  SUCCESS_CLOSE_DELAY_MS,
} from '@latchkey/protocol/constants'
import type { ErrorCode } from '@latchkey/protocol/errors'
import type { OAuthProvider } from '@latchkey/protocol/schemas'
import { lazy, Suspense, useEffect, useMemo, useRef, useState, useSyncExternalStore } from 'react'
import { useUiState } from '../context.ts'
import { useResolvedConfig } from '../hooks/useResolvedConfig.ts'
import { useSession } from '../hooks/useSession.ts'
import type { LatchkeyInstance, LoginOptions, LoginResult } from '../store.ts'
import { ConnectionStatus } from './components/ConnectionStatus.tsx'
import { ScreenLayout } from './components/ScreenLayout.tsx'
import { isInAppBrowser } from './methods/oauth/in-app-browser.ts'
import { InAppBrowserScreen, OAuthLogin, startOAuthFromModal } from './methods/oauth/OAuthLogin.tsx'
import { OAuthStatusScreen } from './methods/oauth/OAuthStatusScreen.tsx'
import { useSmsLogin } from './methods/sms/useSmsLogin.tsx'
import { TelegramLogin } from './methods/telegram/TelegramLogin.tsx'
import { TelegramStatusScreen } from './methods/telegram/TelegramStatusScreen.tsx'
import { nextPostLoginScreen } from './post-login.ts'
import type { Screen } from './screen.ts'
import { AccountNotFoundScreen } from './screens/AccountNotFoundScreen.tsx'
import { EmailCodeScreen } from './screens/EmailCodeScreen.tsx'
import { EmailEntryScreen } from './screens/EmailEntryScreen.tsx'
import { ErrorScreen } from './screens/ErrorScreen.tsx'
import { LandingScreen } from './screens/LandingScreen.tsx'
import { LoadingScreen } from './screens/LoadingScreen.tsx'
import { MoreOptionsScreen } from './screens/MoreOptionsScreen.tsx'
import { SuccessScreen } from './screens/SuccessScreen.tsx'
import { WalletCreationScreen } from './screens/WalletCreationScreen.tsx'

// External wallets and Farcaster load their code (connectors, viem, QR) only when picked.
const WalletLogin = lazy(() => import('./methods/wallet/WalletLogin.tsx'))
const FarcasterLogin = lazy(() => import('./methods/farcaster/FarcasterLogin.tsx'))

export interface LoginFlowProps {
  instance: LatchkeyInstance
  loginOptions: LoginOptions
  /** The login is complete and the post-login sequence has nothing more to show. */
  onFinished(result: LoginResult): void
}

// Send failures the user fixes on the email input itself (spec 01 §5); others get the error screen.
const INLINE_SEND_ERRORS: ReadonlySet<ErrorCode> = new Set<ErrorCode>([
  'INVALID_EMAIL',
  'PLUS_EMAIL_NOT_ALLOWED',
  'INVALID_PAYLOAD',
  'TOO_MANY_REQUESTS',
  'RESEND_COOLDOWN',
])
// Code failures that no other code can fix; the rest stay on the code screen.
const FATAL_SUBMIT_ERRORS: ReadonlySet<ErrorCode> = new Set<ErrorCode>([
  'LOGIN_METHOD_NOT_ALLOWED',
  'ACCOUNT_ALREADY_LINKED',
  'APP_NOT_FOUND',
  'ORIGIN_NOT_ALLOWED',
])

const isOAuthProvider = (method: LoginMethod): method is OAuthProvider =>
  (OAUTH_PROVIDERS as readonly string[]).includes(method)

/** The first screen: a redirect login's return, the method asked for, or the landing screen. */
function initialScreen({ resume, method }: LoginOptions): Screen {
  if (resume?.kind === 'oauth')
    return { screen: 'oauth', provider: resume.ret.provider, ret: resume.ret }
  if (resume?.kind === 'telegram') return { screen: 'telegram', proof: resume.proof }
  if (method === 'email') return { screen: 'email-entry' }
  if (method === 'sms') return { screen: 'sms-entry' }
  if (method === 'wallet') return { screen: 'wallet' }
  if (method === 'farcaster') return { screen: 'farcaster' }
  return { screen: 'landing' }
}

/** The email and phone entry screens' titles per intent. */
const ENTRY_TITLES = {
  login: { email: 'Log in with email', sms: 'Log in with phone' },
  link: { email: 'Link your email', sms: 'Link your phone' },
  update: { email: 'Update your email', sms: 'Update your phone' },
} as const

/** Screens whose input sends a code (send errors show inline there). */
const isEntryScreen = (screen: Screen) =>
  screen.screen === 'landing' || screen.screen === 'email-entry'

/**
 * Picks the screen to draw: the loading screen until ready, a configuration
 * error if there is one, else the screen the flow has reached. Login logic is
 * core's email flow; this only moves between screens.
 */
export function LoginFlow({ instance, loginOptions, onFinished }: LoginFlowProps) {
  const { client } = instance
  const session = useSession(client)
  const { appConfig, appConfigError } = useUiState(instance)
  const config = useResolvedConfig(instance)
  const intent = loginOptions.intent ?? 'login'
  // Linking or updating: the user is already logged in, so no post-login sequence.
  const linking = intent !== 'login'
  const [screen, setScreen] = useState<Screen>(() => initialScreen(loginOptions))
  const [sendError, setSendError] = useState<ErrorCode | null>(null)
  const { prefill } = loginOptions
  const [lastEmail, setLastEmail] = useState(prefill?.type === 'email' ? prefill.value : '')
  const [recentMethod] = useState(() => getRecentLoginMethod(client.storage, client.appId))
  const disableSignup = loginOptions.disableSignup ?? false
  const flow = useMemo(
    () =>
      createEmailFlow(client, {
        disablePlusEmails: config.disablePlusEmails,
        intent:
          intent === 'update'
            ? { type: 'update', oldAddress: loginOptions.current ?? '' }
            : intent === 'link'
              ? { type: 'link' }
              : { type: 'login', disableSignup },
      }),
    [client, config.disablePlusEmails, disableSignup, intent, loginOptions.current],
  )
  const flowState = useSyncExternalStore(flow.subscribe, flow.getState, flow.getState)
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
    onFailure: (error, step) => {
      if (step !== 'send') return fail(error, step === 'resend' ? 'send' : 'submit')
      instance.emitLoginEvent({ type: 'error', code: error.code })
      if (!sms.isInlineSendError(error.code)) setScreen({ screen: 'error', code: error.code })
    },
  })
  const finished = useRef(onFinished)
  finished.current = onFinished

  const fail = (error: LatchkeyError, step: 'send' | 'submit') => {
    instance.emitLoginEvent({ type: 'error', code: error.code })
    if (error.code === 'USER_DOES_NOT_EXIST') setScreen({ screen: 'account-not-found' })
    else if (step === 'send' && isEntryScreen(screen) && INLINE_SEND_ERRORS.has(error.code))
      setSendError(error.code)
    else if (FATAL_SUBMIT_ERRORS.has(error.code) || (step === 'send' && isEntryScreen(screen)))
      setScreen({ screen: 'error', code: error.code })
  }

  const backToLanding = () => {
    flow.reset()
    sms.reset()
    setSendError(null)
    setScreen({ screen: 'landing' })
  }

  /** A method's button on the landing screen or in its overflow. */
  const chooseMethod = (method: LoginMethod) => {
    if (method === 'email') setScreen({ screen: 'email-entry' })
    else if (method === 'sms') setScreen({ screen: 'sms-entry' })
    else if (method === 'telegram') setScreen({ screen: 'telegram', proof: null })
    else if (method === 'wallet') setScreen({ screen: 'wallet' })
    else if (method === 'farcaster') setScreen({ screen: 'farcaster' })
    else if (isOAuthProvider(method)) void startOAuth(method)
  }

  // The page leaves for the provider; the return reopens the modal on the 'oauth' screen.
  const startOAuth = async (provider: OAuthProvider) => {
    if (isInAppBrowser()) return setScreen({ screen: 'in-app-browser' })
    const intent = linking ? 'link' : 'login'
    const failure = await startOAuthFromModal(client, { provider, intent, disableSignup })
    if (!failure) return
    instance.emitLoginEvent({ type: 'error', code: failure.code })
    setScreen({ screen: 'oauth', provider, ret: null, startError: failure })
  }

  /** A redirect login (OAuth, Telegram) finished: on to the success screen and post-login steps. */
  const redirectLoginDone =
    (loginMethod: LoginMethod) =>
    ({ user, isNewUser }: { user: User; isNewUser: boolean }) =>
      setScreen({ screen: 'success', user, isNewUser, loginMethod })

  const redirectLoginFailed = (code: ErrorCode) => {
    instance.emitLoginEvent({ type: 'error', code })
    if (code === 'USER_DOES_NOT_EXIST') setScreen({ screen: 'account-not-found' })
  }

  const sendCode = async (email: string) => {
    setSendError(null)
    setLastEmail(email)
    await flow.sendCode(email)
    const state = flow.getState()
    if (state.status === 'awaiting-code-input')
      setScreen({ screen: 'email-code', email: state.email })
    else if (state.status === 'error') fail(state.error, 'send')
  }

  const resendCode = async () => {
    await flow.resendCode()
    const state = flow.getState()
    if (state.status === 'error') fail(state.error, 'send')
    return state.status === 'awaiting-code-input'
  }

  const submitCode = async (code: string) => {
    await flow.submitCode(code)
    const state = flow.getState()
    if (state.status === 'done')
      setScreen({
        screen: 'success',
        user: state.user,
        isNewUser: state.isNewUser,
        loginMethod: 'email',
      })
    else if (state.status === 'error') fail(state.error, 'submit')
  }

  // Spec 01 §4 "After any login success": the post-login steps, else close 1.4 s after success.
  useEffect(() => {
    if (screen.screen !== 'success') return
    const { user, isNewUser, loginMethod } = screen
    // A link has no post-login sequence: the user was already logged in.
    const next = linking ? null : nextPostLoginScreen({ user, isNewUser, loginMethod, config })
    const timer = next
      ? // Spec 01 §4: the sequence starts 1.4 s after a social login's or a wallet's success.
        setTimeout(
          () => setScreen(next),
          isOAuthProvider(loginMethod) || loginMethod === 'wallet'
            ? SUCCESS_CLOSE_DELAY_MS
            : POST_LOGIN_DELAY_MS,
        )
      : setTimeout(
          () =>
            finished.current({ user, isNewUser, loginMethod, wasAlreadyAuthenticated: linking }),
          SUCCESS_CLOSE_DELAY_MS,
        )
    return () => clearTimeout(timer)
  }, [screen, config, linking])

  const loggingIn = screen.screen === 'success'
  if (!loggingIn && (session.status === 'loading' || (!appConfig && !appConfigError)))
    return <LoadingScreen />
  if (appConfigError && !appConfig)
    return <ErrorScreen code={appConfigError.code} onRetry={() => void instance.loadAppConfig()} />
  if (config.loginMethods.length === 0) return <ErrorScreen code="NO_LOGIN_METHODS" />
  if (config.chainsError)
    return (
      <ErrorScreen
        code={config.chainsError.code}
        values={config.chainsError.id !== undefined ? { id: String(config.chainsError.id) } : {}}
      />
    )

  switch (screen.screen) {
    case 'landing':
      return (
        <LandingScreen
          config={config}
          recentMethod={recentMethod}
          email={{
            onSubmit: sendCode,
            sending: flowState.status === 'sending-code',
            error: sendError,
            onEdit: () => setSendError(null),
            defaultValue: lastEmail,
          }}
          phoneInput={sms.phoneInput(!config.loginMethods.includes('email'))}
          onMethod={chooseMethod}
          onOverflow={(methods, title) => setScreen({ screen: 'more-options', title, methods })}
        />
      )
    case 'sms-entry':
      return (
        <ScreenLayout title={ENTRY_TITLES[intent].sms} onBack={backToLanding}>
          {sms.phoneInput(true)}
        </ScreenLayout>
      )
    case 'sms-code':
      return (
        <EmailCodeScreen
          email={screen.phoneNumber}
          channel={screen.channel}
          appName={config.appName}
          submitting={sms.state.status === 'submitting-code'}
          error={sms.state.status === 'error' ? sms.state : null}
          onSubmitCode={sms.submit}
          onResend={sms.resend}
          onBack={backToLanding}
        />
      )
    case 'more-options':
      return (
        <MoreOptionsScreen
          title={screen.title}
          methods={screen.methods}
          recentMethod={recentMethod}
          onMethod={chooseMethod}
          onBack={backToLanding}
        />
      )
    case 'email-entry':
      return (
        <EmailEntryScreen
          onSubmit={sendCode}
          sending={flowState.status === 'sending-code'}
          error={sendError}
          onEdit={() => setSendError(null)}
          disablePlusEmails={config.disablePlusEmails}
          defaultValue={lastEmail}
          onBack={backToLanding}
          title={ENTRY_TITLES[intent].email}
        />
      )
    case 'email-code':
      return (
        <EmailCodeScreen
          email={screen.email}
          appName={config.appName}
          submitting={flowState.status === 'submitting-code'}
          error={flowState.status === 'error' ? flowState : null}
          onSubmitCode={submitCode}
          onResend={resendCode}
          onBack={backToLanding}
        />
      )
    case 'oauth':
      return (
        <OAuthLogin
          client={client}
          provider={screen.provider}
          ret={screen.ret}
          startError={screen.startError}
          intent={linking ? 'link' : 'login'}
          disableSignup={disableSignup}
          onDone={redirectLoginDone(screen.provider)}
          onError={redirectLoginFailed}
          onBack={backToLanding}
        />
      )
    case 'in-app-browser':
      return <InAppBrowserScreen onClose={backToLanding} />
    case 'telegram':
      return (
        <TelegramLogin
          client={client}
          telegram={appConfig?.telegram_auth_config ?? null}
          proof={screen.proof}
          intent={linking ? 'link' : 'login'}
          disableSignup={disableSignup}
          onDone={redirectLoginDone('telegram')}
          onError={redirectLoginFailed}
          onBack={backToLanding}
        />
      )
    case 'wallet':
      return (
        <Suspense fallback={<LoadingScreen />}>
          <WalletLogin
            instance={instance}
            mode={loginOptions.connectOnly ? 'connect' : linking ? 'link' : 'login'}
            disableSignup={disableSignup}
            walletChainType={loginOptions.walletChainType ?? config.walletChainType}
            walletList={config.walletList}
            onDone={({ user, isNewUser, walletName }) =>
              setScreen({
                screen: 'success',
                user,
                isNewUser,
                loginMethod: 'wallet',
                label: walletName,
              })
            }
            onConnected={(wallet) => {
              instance.completeConnectWallet(wallet)
              instance.closeModal()
            }}
            onError={redirectLoginFailed}
            onBack={
              loginOptions.connectOnly || loginOptions.method === 'wallet'
                ? undefined
                : backToLanding
            }
          />
        </Suspense>
      )
    case 'farcaster':
      return (
        <Suspense fallback={<LoadingScreen />}>
          <FarcasterLogin
            client={client}
            intent={linking ? 'link' : 'login'}
            disableSignup={disableSignup}
            onDone={redirectLoginDone('farcaster')}
            onError={redirectLoginFailed}
            onBack={loginOptions.method === 'farcaster' ? undefined : backToLanding}
          />
        </Suspense>
      )
    case 'success':
      if (screen.loginMethod === 'wallet' && screen.label)
        return <ConnectionStatus name={screen.label} status="success" />
      if (screen.loginMethod === 'farcaster')
        return <ConnectionStatus name="Farcaster" status="success" />
      // Spec 01 §2: social and Telegram logins end on 'Successfully connected with {provider}'.
      if (screen.loginMethod === 'telegram')
        return <TelegramStatusScreen state={{ status: 'success', ...screen }} />
      if (isOAuthProvider(screen.loginMethod))
        return <OAuthStatusScreen provider={screen.loginMethod} status="done" />
      return <SuccessScreen intent={intent} />
    case 'account-not-found':
      return <AccountNotFoundScreen onRetry={backToLanding} />
    case 'error':
      return <ErrorScreen code={screen.code} onRetry={backToLanding} onBack={backToLanding} />
    case 'wallet-creation':
      return (
        <WalletCreationScreen
          client={client}
          chains={screen.chains}
          isNewUser={screen.isNewUser}
          appName={config.appName}
          userOwnedRecovery={
            config.requireUserOwnedRecoveryOnCreate ? config.userOwnedRecoveryOptions : null
          }
          onDone={() =>
            finished.current({
              user: client.session.getState().user ?? screen.user,
              isNewUser: screen.isNewUser,
              loginMethod: screen.loginMethod,
              wasAlreadyAuthenticated: false,
            })
          }
          onFailed={(code) => setScreen({ screen: 'error', code })}
        />
      )
  }
}
