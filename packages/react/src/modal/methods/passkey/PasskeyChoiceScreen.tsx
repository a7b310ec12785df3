import { KeyIcon, UserIcon } from '../../components/icons.tsx'
import { ScreenLayout } from '../../components/ScreenLayout.tsx'
import { StatusIcon } from '../../components/StatusIcon.tsx'

export interface PasskeyChoiceScreenProps {
  /** 'Create new account': sign up with a new passkey. */
  onSignup(): void
  /** 'Log in with a passkey': use one the browser or a phone already holds. */
  onLogin(): void
  onBack?: () => void
}

/**
 * Spec 01 §2 "Passkey" choice screen, shown when passkeys may create accounts
 * (`loginConfig.passkeysForSignupEnabled`): 'Create new account' or 'Log in
 * with a passkey'.
 */
export function PasskeyChoiceScreen({ onSignup, onLogin, onBack }: PasskeyChoiceScreenProps) {
  return (
    <ScreenLayout
      title="Continue with a passkey"
      onBack={onBack}
      media={
        <StatusIcon tone="neutral">
          <KeyIcon />
        </StatusIcon>
      }
    >
      <div className="lk-options">
        <button type="button" className="lk-option" onClick={onSignup}>
          <UserIcon />
          <span>Create new account</span>
        </button>
        <button type="button" className="lk-option" onClick={onLogin}>
          <KeyIcon />
          <span>Log in with a passkey</span>
        </button>
      </div>
    </ScreenLayout>
  )
}
