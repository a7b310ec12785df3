import type { LatchkeyError } from '@latchkey/core'
import { errorMessages } from '@latchkey/protocol/errors'

/**
 * Why the step cannot be signed (spec 03 §8 "Transactions"): 'There was an
 * error preparing your transaction. Your transaction request will likely
 * fail.' when estimating says it would revert (with the revert reason when
 * the node gave one), 'There was an issue preparing your transaction' when
 * the node could not be asked, or the catalogue's words for another code
 * (an unsupported chain, …). 'Retry' where the catalogue marks it retryable.
 */
export function PrepareWarning({ error, onRetry }: { error: LatchkeyError; onRetry(): void }) {
  const entry = errorMessages[error.code] ?? errorMessages.TRANSACTION_PREPARE_ERROR
  const reason = (error.details as { reason?: unknown } | undefined)?.reason
  return (
    <div className="lk-warning" data-tone="danger" role="alert" data-testid="lk-tx-prepare-error">
      <strong>{entry.title}</strong>
      {typeof reason === 'string' && reason && <span>{reason}</span>}
      {entry.retryable && (
        <button type="button" className="lk-link-btn" onClick={onRetry}>
          Retry
        </button>
      )}
    </div>
  )
}
