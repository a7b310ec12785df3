import { errorMessages } from '@latchkey/protocol/errors'
import { ShieldIcon } from '../../components/icons.tsx'
import { ScreenLayout } from '../../components/ScreenLayout.tsx'
import { StatusIcon } from '../../components/StatusIcon.tsx'
import { inOrder, mfaMethodLabels, VERIFY_ORDER } from './labels.ts'
import { MfaMethodIcon } from './MfaMethodIcon.tsx'
import type { MfaMethod } from './types.ts'

export interface MfaVerifyChooserScreenProps {
  /** The user's methods, any order. */
  methods: readonly MfaMethod[]
  onChoose(method: MfaMethod): void
  onCancel(): void
}

/**
 * Spec 02 "Multi-factor verification": 'Verify your identity' / 'Choose a
 * verification method', offering 'Authenticator app', 'SMS' and 'Passkey' in
 * that order, each only if the user has it.
 */
export function MfaVerifyChooserScreen({
  methods,
  onChoose,
  onCancel,
}: MfaVerifyChooserScreenProps) {
  const offered = inOrder(methods, VERIFY_ORDER)
  return (
    <ScreenLayout
      title="Verify your identity"
      subtitle="Choose a verification method"
      media={
        <StatusIcon tone="neutral">
          <ShieldIcon />
        </StatusIcon>
      }
    >
      {offered.length === 0 ? (
        <p className="lk-info" role="alert">
          {errorMessages.MFA_NOT_ENROLLED.title}
        </p>
      ) : (
        <div className="lk-options">
          {offered.map((method) => (
            <button
              key={method}
              type="button"
              className="lk-option"
              onClick={() => onChoose(method)}
            >
              <MfaMethodIcon method={method} />
              <span>{mfaMethodLabels[method]}</span>
            </button>
          ))}
        </div>
      )}
      <div className="lk-actions">
        <button type="button" className="lk-link-btn lk-explainer-toggle" onClick={onCancel}>
          Cancel
        </button>
      </div>
    </ScreenLayout>
  )
}
