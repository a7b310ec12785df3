import { CheckIcon } from '../../components/icons.tsx'
import { ScreenLayout } from '../../components/ScreenLayout.tsx'
import { StatusIcon } from '../../components/StatusIcon.tsx'
import type { MfaMethod } from './types.ts'

export interface MfaEnrolledScreenProps {
  method: MfaMethod
  onDone(): void
}

/** Spec 02: 'SMS verification added' and its equivalents for the other methods. */
export const enrolledTitles: Readonly<Record<MfaMethod, string>> = {
  sms: 'SMS verification added',
  totp: 'Authenticator app added',
  passkey: 'Passkey verification added',
}

const subtitles: Readonly<Record<MfaMethod, string>> = {
  sms: "We'll text you a code when a wallet action needs your confirmation.",
  totp: "You'll enter a code from the app when a wallet action needs your confirmation.",
  passkey: "You'll use your passkey when a wallet action needs your confirmation.",
}

/** The end of an enrollment; Done returns to the method list. */
export function MfaEnrolledScreen({ method, onDone }: MfaEnrolledScreenProps) {
  return (
    <ScreenLayout
      title={enrolledTitles[method]}
      subtitle={subtitles[method]}
      media={
        <StatusIcon tone="success">
          <CheckIcon />
        </StatusIcon>
      }
    >
      <div className="lk-actions">
        <button type="button" className="lk-btn lk-btn-primary" onClick={onDone}>
          Done
        </button>
      </div>
    </ScreenLayout>
  )
}
