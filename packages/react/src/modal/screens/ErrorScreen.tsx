import { type ErrorCode, errorMessages, formatUserMessage } from '@latchkey/protocol/errors'
import { AlertIcon } from '../components/icons.tsx'
import { ScreenLayout } from '../components/ScreenLayout.tsx'
import { StatusIcon } from '../components/StatusIcon.tsx'

export interface ErrorScreenProps {
  code: ErrorCode
  /** Offered as 'Retry' when the catalogue marks the error retryable. */
  onRetry?: () => void
  /** Back to the landing screen; absent for errors a user cannot get past (configuration). */
  onBack?: () => void
  /** Placeholders of the message, e.g. `{ id: '137' }` for 'Chain ID {id} is not supported…'. */
  values?: Record<string, string>
  /**
   * The server's own words, shown instead of the catalogue's (spec 01 §8: a
   * 400/422 the catalogue defers to the server for, or a code this client
   * does not know): a LatchkeyError's `serverMessage`.
   */
  serverMessage?: string
}

/**
 * The error screen (spec 02): title and detail from the catalogue, or the
 * server's message where spec 01 §8 shows it; Retry when retryable.
 */
export function ErrorScreen({ code, onRetry, onBack, values, serverMessage }: ErrorScreenProps) {
  const entry = errorMessages[code] ? formatUserMessage(code, values) : errorMessages.INTERNAL_ERROR
  const message = serverMessage ? { title: serverMessage, retryable: entry.retryable } : entry
  return (
    <ScreenLayout
      title={message.title}
      subtitle={message.detail}
      media={
        <StatusIcon tone="error">
          <AlertIcon />
        </StatusIcon>
      }
    >
      <div className="lk-actions">
        {message.retryable && onRetry ? (
          <button type="button" className="lk-btn lk-btn-primary" onClick={onRetry} autoFocus>
            Retry
          </button>
        ) : (
          onBack && (
            <button type="button" className="lk-btn lk-btn-secondary" onClick={onBack}>
              Go back
            </button>
          )
        )}
      </div>
    </ScreenLayout>
  )
}
