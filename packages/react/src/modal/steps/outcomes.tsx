import { transferAccount } from '@latchkey/core'
import { lazy, Suspense } from 'react'
import { ConnectionStatus } from '../components/ConnectionStatus.tsx'
import { explorerAddressUrl } from '../explorer.ts'
import { OAuthStatusScreen } from '../methods/oauth/OAuthStatusScreen.tsx'
import { isOAuthProvider } from '../methods/oauth/providers.tsx'
import { TelegramStatusScreen } from '../methods/telegram/TelegramStatusScreen.tsx'
import { AccountNotFoundScreen } from '../screens/AccountNotFoundScreen.tsx'
import { AllowlistRejectedScreen } from '../screens/AllowlistRejectedScreen.tsx'
import { ErrorScreen } from '../screens/ErrorScreen.tsx'
import { LoadingScreen } from '../screens/LoadingScreen.tsx'
import { SuccessScreen } from '../screens/SuccessScreen.tsx'
import { TermsScreen } from '../screens/TermsScreen.tsx'
import { UserLimitScreen } from '../screens/UserLimitScreen.tsx'
import { WalletCreationScreen } from '../screens/WalletCreationScreen.tsx'
import type { StepRenderers } from './context.ts'

// Rarely seen: only when a link meets another user's only login method.
const AccountTransferScreen = lazy(() => import('../screens/AccountTransferScreen.tsx'))

/**
 * How an attempt ends: success and the post-login steps (terms, wallet
 * creation), or the login-outcome screens of spec 02 §8 (`login-outcome.ts`).
 */
export const outcomeSteps: Pick<
  StepRenderers,
  | 'success'
  | 'terms'
  | 'wallet-creation'
  | 'account-transfer'
  | 'error'
  | 'account-not-found'
  | 'allowlist-rejected'
  | 'user-limit'
> = {
  success: (screen, { intent }) => {
    if ((screen.loginMethod === 'wallet' || screen.loginMethod === 'cross_app') && screen.label)
      return <ConnectionStatus name={screen.label} status="success" />
    if (screen.loginMethod === 'farcaster')
      return <ConnectionStatus name="Farcaster" status="success" />
    // Spec 01 §2: social and Telegram logins end on 'Successfully connected with {provider}'.
    if (screen.loginMethod === 'telegram')
      return <TelegramStatusScreen state={{ status: 'success', ...screen }} />
    if (isOAuthProvider(screen.loginMethod))
      return <OAuthStatusScreen provider={screen.loginMethod} status="done" />
    return <SuccessScreen intent={intent} />
  },
  terms: (screen, { config, postLogin }) => (
    <TermsScreen
      termsUrl={config.termsAndConditionsUrl}
      privacyUrl={config.privacyPolicyUrl}
      appName={config.appName}
      onAccept={() => postLogin.acceptAndContinue(screen)}
      onDecline={postLogin.declineTerms}
    />
  ),
  'wallet-creation': (screen, { instance, config, postLogin }) => (
    <WalletCreationScreen
      client={instance.client}
      chains={screen.chains}
      isNewUser={screen.isNewUser}
      appName={config.appName}
      userOwnedRecovery={
        config.requireUserOwnedRecoveryOnCreate ? config.userOwnedRecoveryOptions : null
      }
      onDone={() =>
        postLogin.finish({
          user: instance.client.session.getState().user ?? screen.user,
          isNewUser: screen.isNewUser,
          loginMethod: screen.loginMethod,
          wasAlreadyAuthenticated: false,
        })
      }
      // Spec 02 §2, §4: the user is logged out; the screen shows the message and Close.
      onFailed={(code) => instance.emitLoginEvent({ type: 'error', code })}
      onClose={() => instance.closeModal()}
      onExitChange={postLogin.setWalletStepExit}
    />
  ),
  'account-transfer': (
    { offer, account, loginMethod },
    { instance, ui, postLogin, backToLanding },
  ) => {
    const wallet = offer.other_user
    const chain = ui.hostConfig.defaultChain ?? ui.hostConfig.chains?.[0]
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
          transfer={() => transferAccount(instance.client, { offer, account })}
          onDecline={() => {
            // 'No thanks': nothing moved; the link ends refused.
            instance.emitLoginEvent({ type: 'error', code: 'ACCOUNT_TRANSFER_REQUIRED' })
            instance.closeModal()
            backToLanding()
          }}
          onDone={(user) =>
            postLogin.finish({
              user,
              isNewUser: false,
              loginMethod,
              wasAlreadyAuthenticated: true,
            })
          }
        />
      </Suspense>
    )
  },
  error: (screen, { backToLanding }) => (
    <ErrorScreen
      code={screen.code}
      serverMessage={screen.serverMessage}
      onRetry={backToLanding}
      onBack={backToLanding}
    />
  ),
  'account-not-found': (_, { backToLanding }) => <AccountNotFoundScreen onRetry={backToLanding} />,
  'allowlist-rejected': (_, { ui, backToLanding }) => (
    <AllowlistRejectedScreen
      config={ui.appConfig?.allowlist_config ?? null}
      onRetry={backToLanding}
    />
  ),
  'user-limit': (_, { backToLanding }) => <UserLimitScreen onBack={backToLanding} />,
}
