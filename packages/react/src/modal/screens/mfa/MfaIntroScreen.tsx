import { ShieldIcon } from '../../components/icons.tsx'
import { ScreenLayout } from '../../components/ScreenLayout.tsx'
import { StatusIcon } from '../../components/StatusIcon.tsx'

export interface MfaIntroScreenProps {
  onContinue(): void
  onNotNow(): void
}

/** Spec 02 "Multi-factor enrollment and management": the intro, 'Transaction Protection'. */
export function MfaIntroScreen({ onContinue, onNotNow }: MfaIntroScreenProps) {
  return (
    <ScreenLayout
      title="Transaction Protection"
      subtitle="Add a second step, such as a code or a passkey, that confirms it's you before your wallet sends funds or shares its key."
      media={
        <StatusIcon tone="neutral">
          <ShieldIcon />
        </StatusIcon>
      }
    >
      <div className="lk-actions">
        <button type="button" className="lk-btn lk-btn-primary" onClick={onContinue}>
          Continue
        </button>
        <button type="button" className="lk-btn lk-btn-secondary" onClick={onNotNow}>
          Not now
        </button>
      </div>
    </ScreenLayout>
  )
}
