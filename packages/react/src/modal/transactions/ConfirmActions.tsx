import type { ErrorCode } from '@latchkey/protocol/errors'
import { errorMessages } from '@latchkey/protocol/errors'

export interface ConfirmActionsProps {
  /** Short of funds with no way to add them: 'Add funds on {chain} to complete transaction.' */
  fundsNote: string | null
  /** A refusal the user can act on (an MFA cancel…): its catalogue title. */
  notice: ErrorCode | null
  buttonText: string
  /** 'Add funds' instead of approving: the wallet is short and the app can fund it. */
  offerFunds: boolean
  /** The submit button is pressable (approve: prepared, scanned, funded; add funds: idle). */
  enabled: boolean
  busy: boolean
  onSubmit(): void
  onAddFunds(): void
  /** 'Not now' (the app's `isCancellable`), with whether it is pressable. */
  cancel: { onCancel(): void; disabled: boolean } | null
}

/**
 * The foot of both confirm screens (spec 03 §4): the funds note, a notice,
 * the submit button ('Approve', 'Continue' or 'Add funds') and 'Not now'.
 */
export function ConfirmActions({
  fundsNote,
  notice,
  buttonText,
  offerFunds,
  enabled,
  busy,
  onSubmit,
  onAddFunds,
  cancel,
}: ConfirmActionsProps) {
  return (
    <>
      {fundsNote && <p className="lk-tx-note">{fundsNote}</p>}
      {notice && (
        <p className="lk-alert" role="alert">
          {errorMessages[notice].title}
        </p>
      )}
      <div className="lk-actions">
        <button
          type="button"
          className="lk-btn lk-btn-primary"
          disabled={!enabled}
          aria-busy={busy}
          onClick={offerFunds ? onAddFunds : onSubmit}
        >
          {buttonText}
        </button>
        {cancel && (
          <button
            type="button"
            className="lk-btn lk-btn-secondary"
            disabled={cancel.disabled}
            onClick={cancel.onCancel}
          >
            Not now
          </button>
        )}
      </div>
    </>
  )
}
