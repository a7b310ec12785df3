import { ScreenLayout } from '../components/ScreenLayout.tsx'
import { LandingWithWallets } from '../landing-wallets.tsx'
import { EmailCodeScreen } from '../screens/EmailCodeScreen.tsx'
import { EmailEntryScreen } from '../screens/EmailEntryScreen.tsx'
import { MoreOptionsScreen } from '../screens/MoreOptionsScreen.tsx'
import type { StepRenderers } from './context.ts'

/** The email and phone entry screens' titles per intent (spec 02 "Email and phone update"). */
const ENTRY_TITLES = {
  login: { email: 'Log in with email', sms: 'Log in with phone' },
  link: { email: 'Connect your email', sms: 'Connect your phone' },
  update: { email: 'Update your email', sms: 'Update your phone number' },
} as const

/** The landing screen, its overflow, and the code logins: email and SMS inputs and code screens. */
export const entrySteps: Pick<
  StepRenderers,
  'landing' | 'more-options' | 'email-entry' | 'email-code' | 'sms-entry' | 'sms-code'
> = {
  landing: (
    _,
    { instance, config, loginOptions, recentMethod, email, sms, chooseMethod, setScreen },
  ) => (
    <LandingWithWallets
      instance={instance}
      walletChainType={loginOptions.walletChainType ?? config.walletChainType}
      onWallet={(walletId) => setScreen({ screen: 'wallet', walletId })}
      onWalletList={(wallets) =>
        setScreen(wallets ? { screen: 'wallet', walletList: wallets } : { screen: 'wallet' })
      }
      config={config}
      recentMethod={recentMethod}
      email={email.input}
      phoneInput={sms.phoneInput(!config.loginMethods.includes('email'))}
      onMethod={chooseMethod}
      onOverflow={(methods, title) => setScreen({ screen: 'more-options', title, methods })}
      onCrossApp={(appId, popup) => setScreen({ screen: 'cross-app', appId, popup })}
    />
  ),
  'more-options': (screen, { recentMethod, chooseMethod, backToLanding }) => (
    <MoreOptionsScreen
      title={screen.title}
      methods={screen.methods}
      recentMethod={recentMethod}
      onMethod={chooseMethod}
      onBack={backToLanding}
    />
  ),
  'email-entry': (_, { config, intent, email, backToLanding }) => (
    <EmailEntryScreen
      onSubmit={email.input.onSubmit}
      sending={email.input.sending}
      error={email.input.error}
      retryAt={email.input.retryAt}
      onEdit={email.input.onEdit}
      disablePlusEmails={config.disablePlusEmails}
      defaultValue={email.input.defaultValue}
      onBack={backToLanding}
      title={ENTRY_TITLES[intent].email}
    />
  ),
  'email-code': (screen, { config, email, backToLanding }) => (
    <EmailCodeScreen
      email={screen.email}
      appName={config.appName}
      submitting={email.state.status === 'submitting-code'}
      error={email.state.status === 'error' ? email.state : null}
      resendAt={email.resendAt}
      onSubmitCode={email.submit}
      onResend={email.resend}
      onBack={backToLanding}
    />
  ),
  'sms-entry': (_, { intent, sms, backToLanding }) => (
    <ScreenLayout title={ENTRY_TITLES[intent].sms} onBack={backToLanding}>
      {sms.phoneInput(true)}
    </ScreenLayout>
  ),
  'sms-code': (screen, { config, sms, backToLanding }) => (
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
  ),
}
