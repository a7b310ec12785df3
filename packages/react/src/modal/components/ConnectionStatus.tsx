import { AlertIcon, CheckIcon } from './icons.tsx'
import { ScreenLayout } from './ScreenLayout.tsx'
import { Spinner } from './Spinner.tsx'
import { StatusIcon } from './StatusIcon.tsx'

export interface ConnectionStatusProps {
  /** Who is being connected: 'Google', 'Telegram'. */
  name: string
  status: 'verifying' | 'success' | 'failure'
  /** The failure's wording (the spec's message for its code). */
  detail?: string | null
  /** Offered as 'Retry' on a failure; omit when the failure is not retryable. */
  onRetry?: () => void
  onBack?: () => void
}

/**
 * The three statuses social and Telegram logins share (spec 01 §2 "Social
 * login status"): 'Verifying connection to {name}', 'Successfully connected
 * with {name}', or 'Authentication failed' with the reason and Retry.
 */
export function ConnectionStatus({ name, status, detail, onRetry, onBack }: ConnectionStatusProps) {
  if (status === 'failure')
    return (
      <ScreenLayout
        title="Authentication failed"
        subtitle={detail ?? undefined}
        onBack={onBack}
        media={
          <StatusIcon tone="error">
            <AlertIcon />
          </StatusIcon>
        }
      >
        <div className="lk-actions">
          {onRetry && (
            <button type="button" className="lk-btn lk-btn-primary" onClick={onRetry} autoFocus>
              Retry
            </button>
          )}
        </div>
      </ScreenLayout>
    )
  if (status === 'success')
    return (
      <ScreenLayout
        title={`Successfully connected with ${name}`}
        media={
          <StatusIcon tone="success">
            <CheckIcon />
          </StatusIcon>
        }
      >
        <p className="lk-visually-hidden" role="status">
          Successfully connected with {name}
        </p>
      </ScreenLayout>
    )
  return (
    <ScreenLayout title={`Verifying connection to ${name}`} onBack={onBack}>
      <div className="lk-status">
        <Spinner label={`Verifying connection to ${name}`} />
      </div>
    </ScreenLayout>
  )
}
