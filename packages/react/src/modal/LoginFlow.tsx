import {
  type AccountTransferInput,
  acceptTerms,
  accountTransferOffer,
  canTransferAccount,
  createEmailFlow,
  getRecentLoginMethod,
  LatchkeyError,
  type LoginMethod,
  transferAccount,
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
import { useChrome } from './components/chrome.ts'
import { ScreenLayout } from './components/ScreenLayout.tsx'
import { explorerAddressUrl } from './explorer.ts'
import { isInAppBrowser } from './methods/oauth/in-app-browser.ts'
import { InAppBrowserScreen, OAuthLogin, startOAuthFromModal } from './methods/oauth/OAuthLogin.tsx'
import { OAuthStatusScreen } from './methods/oauth/OAuthStatusScreen.tsx'
import { useSmsLogin } from './methods/sms/useSmsLogin.tsx'
import { TelegramLogin } from './methods/telegram/TelegramLogin.tsx'
import { TelegramStatusScreen } from './methods/telegram/TelegramStatusScreen.tsx'
import { nextPostLoginScreen } from './post-login.ts'
import type { Screen } from './screen.ts'
import { AccountNotFoundScreen } from './screens/AccountNotFoundScreen.tsx'
import { AllowlistRejectedScreen } from './screens/AllowlistRejectedScreen.tsx'
import { EmailCodeScreen } from './screens/EmailCodeScreen.tsx'
import { EmailEntryScreen } from './screens/EmailEntryScreen.tsx'
import { ErrorScreen } from './screens/ErrorScreen.tsx'
import { LandingScreen } from './screens/LandingScreen.tsx'
import { LoadingScreen } from './screens/LoadingScreen.tsx'
import { MoreOptionsScreen } from './screens/MoreOptionsScreen.tsx'
import { SuccessScreen } from './screens/SuccessScreen.tsx'
import { TermsScreen } from './screens/TermsScreen.tsx'
import { UserLimitScreen } from './screens/UserLimitScreen.tsx'
import { WalletCreationScreen } from './screens/WalletCreationScreen.tsx'

// External wallets and Farcaster load their code (connectors, viem, QR) only when picked.
const WalletLogin = lazy(() => import('./methods/wallet/WalletLogin.tsx'))
const FarcasterLogin = lazy(() => import('./methods/farcaster/FarcasterLogin.tsx'))
// Passkeys bring @simplewebauthn/browser, loaded with this chunk when the method is picked.
const PasskeyLogin = lazy(() => import('./methods/passkey/PasskeyLogin.tsx'))
// Rarely seen: only when a link meets another user's only login method.
const AccountTransferScreen = lazy(() => import('./screens/AccountTransferScreen.tsx'))

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

// Spec 02 §8 "Login-outcome screens": failures that end the attempt on the error screen,
// whichever method or step they come from (catalogue wording: 'Not allowed' / 'Try
// another method', 'Too many requests…', 'This region is not supported').
const OUTCOME_ERRORS: ReadonlySet<ErrorCode> = new Set<ErrorCode>([
  'LOGIN_METHOD_NOT_ALLOWED',
  'TOO_MANY_REQUESTS',
  'REGION_NOT_SUPPORTED',
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
  if (method === 'passkey') return { screen: 'passkey' }
  return { screen: 'landing' }
}

/** The account a failed attempt was about: what a transfer offer needs to move it. */
interface AttemptedAccount {
  loginMethod: LoginMethod
  account: AccountTransferInput
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
  const { appConfig, appConfigError, open, hostConfig } = useUiState(instance)
  // In the dialog (not the standalone panel): closing it is possible, and ends the attempt.
  const inDialog = Boolean(useChrome().onClose)
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
  // Issue 16, 3: when the server sends another code (the resend link's countdown), and
  // when a refused first send may be tried again (the email input's).
  const resendAt = 'resendAt' in flowState ? flowState.resendAt : undefined
  const sendRetryAt =
    flowState.status === 'error' && flowState.step === 'send' ? resendAt : undefined
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
      const account = { loginMethod: 'sms' as const, account: { phoneNumber } }
      if (step !== 'send') return fail(error, step === 'resend' ? 'send' : 'submit', account)
      instance.emitLoginEvent({ type: 'error', code: error.code })
      if (!sms.isInlineSendError(error.code))
        setScreen(outcomeScreen(error) ?? { screen: 'error', code: error.code })
    },
  })
  const finished = useRef(onFinished)
  finished.current = onFinished

  /**
   * Spec 02 §8 "Login-outcome screens": the screen a failure of any method
   * leads to, or null when the method's own screen shows it. A link that
   * met another user's only login method offers the transfer when the
   * account can be named for the transfer call; otherwise it is refused.
   */
  const outcomeScreen = (error: LatchkeyError, attempt?: AttemptedAccount): Screen | null => {
    const offer = accountTransferOffer(error)
    if (offer && attempt && linking && canTransferAccount(offer, attempt.account))
      return { screen: 'account-transfer', offer, ...attempt }
    if (error.code === 'ACCOUNT_TRANSFER_REQUIRED')
      return { screen: 'error', code: 'ACCOUNT_ALREADY_LINKED' }
    if (error.code === 'USER_DOES_NOT_EXIST') return { screen: 'account-not-found' }
    if (error.code === 'ALLOWLIST_REJECTED') return { screen: 'allowlist-rejected' }
    if (error.code === 'USER_LIMIT_REACHED') return { screen: 'user-limit' }
    if (OUTCOME_ERRORS.has(error.code)) return { screen: 'error', code: error.code }
    return null
  }

  /** Reports a failure (not a transfer offer: that is a question, not an end) and moves on. */
  const report = (error: LatchkeyError, next: Screen | null) => {
    if (next?.screen !== 'account-transfer')
      instance.emitLoginEvent({ type: 'error', code: error.code })
    if (next) setScreen(next)
  }

  const fail = (error: LatchkeyError, step: 'send' | 'submit', attempt?: AttemptedAccount) => {
    if (step === 'send' && isEntryScreen(screen) && INLINE_SEND_ERRORS.has(error.code)) {
      instance.emitLoginEvent({ type: 'error', code: error.code })
      return setSendError(error.code)
    }
    const next = outcomeScreen(error, attempt)
    report(
      error,
      next ??
        (FATAL_SUBMIT_ERRORS.has(error.code) || (step === 'send' && isEntryScreen(screen))
          ? { screen: 'error', code: error.code }
          : null),
    )
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
      outcomeScreen(error) ?? { screen: 'oauth', provider, ret: null, startError: failure },
    )
  }

  /** A redirect login (OAuth, Telegram) finished: on to the success screen and post-login steps. */
  const redirectLoginDone =
    (loginMethod: LoginMethod) =>
    ({ user, isNewUser }: { user: User; isNewUser: boolean }) =>
      setScreen({ screen: 'success', user, isNewUser, loginMethod })

  /** A method screen's failure: an outcome screen, or the method's own screen shows it. */
  const redirectLoginFailed =
    (loginMethod: LoginMethod) => (error: LatchkeyError, account?: AccountTransferInput) =>
      report(error, outcomeScreen(error, account ? { loginMethod, account } : undefined))

  // Spec 02 "Terms consent": 'No thanks' — or closing the dialog on that screen — logs the
  // user out; `useLogin`'s onError gets TERMS_DECLINED.
  const termsSettled = useRef(false)
  const declineTerms = () => {
    if (termsSettled.current) return
    termsSettled.current = true
    instance.emitLoginEvent({ type: 'error', code: 'TERMS_DECLINED' })
    void client.session.logout().catch(() => undefined)
    setScreen({ screen: 'landing' })
    instance.closeModal()
  }
  useEffect(() => {
    if (inDialog && !open && screen.screen === 'terms') declineTerms()
  })

  /** Accept: record it, then the rest of the post-login sequence, else close with success. */
  const acceptAndContinue = async (step: Extract<Screen, { screen: 'terms' }>) => {
    const user = await acceptTerms(client)
    const next = nextPostLoginScreen({ ...step, user, config })
    if (next) return setScreen(next)
    // The modal closes on the terms screen: that is no decline.
    termsSettled.current = true
    finished.current({
      user,
      isNewUser: step.isNewUser,
      loginMethod: step.loginMethod,
      wasAlreadyAuthenticated: false,
    })
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
    else if (state.status === 'error')
      fail(state.error, 'submit', { loginMethod: 'email', account: { email: state.email } })
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
            retryAt: sendRetryAt,
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
          resendAt={'resendAt' in sms.state ? sms.state.resendAt : undefined}
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
          retryAt={sendRetryAt}
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
          resendAt={resendAt}
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
          onError={redirectLoginFailed(screen.provider)}
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
          onError={redirectLoginFailed('telegram')}
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
            onError={redirectLoginFailed('wallet')}
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
            onError={redirectLoginFailed('farcaster')}
            onBack={loginOptions.method === 'farcaster' ? undefined : backToLanding}
          />
        </Suspense>
      )
    case 'passkey':
      return (
        <Suspense fallback={<LoadingScreen />}>
          <PasskeyLogin
            client={client}
            intent={linking ? 'link' : 'login'}
            disableSignup={disableSignup}
            passkeysForSignup={config.passkeysForSignup}
            onDone={redirectLoginDone('passkey')}
            onError={redirectLoginFailed('passkey')}
            onBack={loginOptions.method === 'passkey' ? undefined : backToLanding}
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
    case 'allowlist-rejected':
      return (
        <AllowlistRejectedScreen
          config={appConfig?.allowlist_config ?? null}
          onRetry={backToLanding}
        />
      )
    case 'user-limit':
      return <UserLimitScreen onBack={backToLanding} />
    case 'terms':
      return (
        <TermsScreen
          termsUrl={config.termsAndConditionsUrl}
          privacyUrl={config.privacyPolicyUrl}
          appName={config.appName}
          onAccept={() => acceptAndContinue(screen)}
          onDecline={declineTerms}
        />
      )
    case 'account-transfer': {
      const { offer, account, loginMethod } = screen
      const wallet = offer.other_user
      const chain = hostConfig.defaultChain ?? hostConfig.chains?.[0]
      return (
        <Suspense fallback={<LoadingScreen />}>
          <AccountTransferScreen
            offer={offer}
            explorerUrl={
              wallet.embedded_wallet_address
                ? explorerAddressUrl(
                    wallet.embedded_wallet_address,
                    wallet.embedded_wallet_chain_type ?? 'ethereum',
                    chain,
                  )
                : null
            }
            transfer={() => transferAccount(client, { offer, account })}
            onDecline={() => {
              // 'No thanks': nothing moved; the link ends refused.
              instance.emitLoginEvent({ type: 'error', code: 'ACCOUNT_TRANSFER_REQUIRED' })
              instance.closeModal()
              backToLanding()
            }}
            onDone={(user) =>
              finished.current({
                user,
                isNewUser: false,
                loginMethod,
                wasAlreadyAuthenticated: true,
              })
            }
          />
        </Suspense>
      )
    }
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
