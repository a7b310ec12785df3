import { AlertIcon } from '../components/icons.tsx'
import { ScreenLayout } from '../components/ScreenLayout.tsx'
import { StatusIcon } from '../components/StatusIcon.tsx'
import { HashRow } from './HashRow.tsx'
import type { TransactionFailure } from './transaction-failure.ts'

/**
 * Spec 03 §8 "Transaction error screen": the short message, 'Please try
 * again.', the error code or message, the hash (when the transaction was
 * broadcast) with copy and explorer link, and 'Retry transaction'.
 */
export function TransactionErrorView({
  failure,
  explorerUrl,
  onRetry,
}: {
  failure: TransactionFailure
  explorerUrl: string | null
  onRetry(): void
}) {
  return (
    <ScreenLayout
      title={failure.title}
      subtitle="Please try again."
      media={
        <StatusIcon tone="error">
          <AlertIcon />
        </StatusIcon>
      }
    >
      <p className="lk-visually-hidden" role="alert">
        {failure.title}
      </p>
      {(failure.code || failure.message) && (
        <div className="lk-details" data-testid="lk-tx-error">
          {failure.code && <p className="lk-details-label">{failure.code}</p>}
          {failure.message && <pre className="lk-details-text">{failure.message}</pre>}
        </div>
      )}
      {failure.hash && <HashRow hash={failure.hash} explorerUrl={explorerUrl} />}
      <div className="lk-actions">
        <button type="button" className="lk-btn lk-btn-primary" onClick={onRetry} autoFocus>
          Retry transaction
        </button>
      </div>
    </ScreenLayout>
  )
}
