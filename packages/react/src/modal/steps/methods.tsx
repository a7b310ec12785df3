import { lazy, Suspense } from 'react'
import { InAppBrowserScreen, OAuthLogin } from '../methods/oauth/OAuthLogin.tsx'
import { TelegramLogin } from '../methods/telegram/TelegramLogin.tsx'
import { LoadingScreen } from '../screens/LoadingScreen.tsx'
import type { StepRenderers } from './context.ts'

// External wallets and Farcaster load their code (connectors, viem, QR) only when picked.
const WalletLogin = lazy(() => import('../methods/wallet/WalletLogin.tsx'))
const FarcasterLogin = lazy(() => import('../methods/farcaster/FarcasterLogin.tsx'))
// Passkeys bring @simplewebauthn/browser, loaded with this chunk when the method is picked.
const PasskeyLogin = lazy(() => import('../methods/passkey/PasskeyLogin.tsx'))

/** The methods with a screen of their own: social, Telegram, wallets, Farcaster, passkeys. */
export const methodSteps: Pick<
  StepRenderers,
  'oauth' | 'in-app-browser' | 'telegram' | 'wallet' | 'farcaster' | 'passkey'
> = {
  oauth: (screen, { instance, linking, disableSignup, loggedIn, failed, backToLanding }) => (
    <OAuthLogin
      client={instance.client}
      provider={screen.provider}
      ret={screen.ret}
      startError={screen.startError}
      intent={linking ? 'link' : 'login'}
      disableSignup={disableSignup}
      onDone={loggedIn(screen.provider)}
      onError={failed(screen.provider)}
      onBack={backToLanding}
    />
  ),
  'in-app-browser': (_, { backToLanding }) => <InAppBrowserScreen onClose={backToLanding} />,
  telegram: (screen, { instance, ui, linking, disableSignup, loggedIn, failed, backToLanding }) => (
    <TelegramLogin
      client={instance.client}
      telegram={ui.appConfig?.telegram_auth_config ?? null}
      proof={screen.proof}
      intent={linking ? 'link' : 'login'}
      disableSignup={disableSignup}
      onDone={loggedIn('telegram')}
      onError={failed('telegram')}
      onBack={backToLanding}
    />
  ),
  wallet: (
    screen,
    { instance, loginOptions, config, linking, disableSignup, setScreen, failed, backToLanding },
  ) => (
    <Suspense fallback={<LoadingScreen />}>
      <WalletLogin
        instance={instance}
        mode={loginOptions.connectOnly ? 'connect' : linking ? 'link' : 'login'}
        disableSignup={disableSignup}
        walletChainType={loginOptions.walletChainType ?? config.walletChainType}
        walletList={screen.walletList ?? config.walletList}
        initialWallet={screen.walletId}
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
        onError={failed('wallet')}
        onBack={
          loginOptions.connectOnly || loginOptions.method === 'wallet' ? undefined : backToLanding
        }
      />
    </Suspense>
  ),
  farcaster: (
    _,
    { instance, loginOptions, linking, disableSignup, loggedIn, failed, backToLanding },
  ) => (
    <Suspense fallback={<LoadingScreen />}>
      <FarcasterLogin
        client={instance.client}
        intent={linking ? 'link' : 'login'}
        disableSignup={disableSignup}
        onDone={loggedIn('farcaster')}
        onError={failed('farcaster')}
        onBack={loginOptions.method === 'farcaster' ? undefined : backToLanding}
      />
    </Suspense>
  ),
  passkey: (
    _,
    { instance, loginOptions, config, linking, disableSignup, loggedIn, failed, backToLanding },
  ) => (
    <Suspense fallback={<LoadingScreen />}>
      <PasskeyLogin
        client={instance.client}
        intent={linking ? 'link' : 'login'}
        disableSignup={disableSignup}
        passkeysForSignup={config.passkeysForSignup}
        onDone={loggedIn('passkey')}
        onError={failed('passkey')}
        onBack={loginOptions.method === 'passkey' ? undefined : backToLanding}
      />
    </Suspense>
  ),
}
