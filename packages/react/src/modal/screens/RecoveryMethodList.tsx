import { CLOUD_RECOVERY_PROVIDER_NAMES as cloudRecoveryProviderNames } from '@latchkey/protocol/constants'
import type { CloudRecoveryProvider } from '@latchkey/protocol/schemas'
import { useId } from 'react'
import type { RecoveryOption, SecureAccountRequest } from '../../store.ts'
import { CloudIcon, LockIcon, ShieldIcon } from '../components/icons.tsx'
import { ScreenLayout } from '../components/ScreenLayout.tsx'
import { StatusIcon } from '../components/StatusIcon.tsx'
import { recoveryStatusOf } from '../recovery-status.ts'

export const isCloud = (option: RecoveryOption): option is CloudRecoveryProvider =>
  option === 'google-drive' || option === 'icloud'

/** The label of each choice; a password reads 'Reset password' when one is set. */
function optionLabel(option: RecoveryOption, current: SecureAccountRequest['currentMethod']) {
  if (isCloud(option)) return `Back up to ${cloudRecoveryProviderNames[option]}`
  if (option === 'user-passcode')
    return current === 'user-passcode' ? 'Reset password' : 'Set a password'
  return 'Secure automatically'
}

/**
 * The list of spec 02 "Secure your account" / "Update backup method", with
 * its info panel: "Why is this necessary?" and what the wallet's current
 * recovery means (automatic: recoverable, the server holds the key; none yet:
 * losing the device loses the wallet; a password or a cloud backup: which).
 */
export function RecoveryMethodList({
  request,
  options,
  onPick,
}: {
  request: SecureAccountRequest
  options: RecoveryOption[]
  onPick(option: RecoveryOption): void
}) {
  const infoId = useId()
  return (
    <ScreenLayout
      title={request.mode === 'secure' ? 'Secure your account' : 'Update backup method'}
      subtitle="Choose how to restore your wallet if you use a new device."
      media={
        <StatusIcon tone="neutral">
          <ShieldIcon />
        </StatusIcon>
      }
    >
      <div className="lk-options">
        {options.map((option) => (
          <button
            key={option}
            type="button"
            className="lk-option"
            aria-describedby={infoId}
            onClick={() => onPick(option)}
          >
            {isCloud(option) ? (
              <CloudIcon />
            ) : option === 'user-passcode' ? (
              <LockIcon />
            ) : (
              <ShieldIcon />
            )}
            <span>{optionLabel(option, request.currentMethod)}</span>
          </button>
        ))}
      </div>
      <p className="lk-info" id={infoId} data-testid="recovery-status">
        <strong>Why is this necessary?</strong>
        {recoveryStatusOf(request.currentMethod)}
      </p>
    </ScreenLayout>
  )
}
