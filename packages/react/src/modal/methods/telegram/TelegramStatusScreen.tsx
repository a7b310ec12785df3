import type { TelegramFlowState } from '@latchkey/core'
import { AlertIcon, CheckIcon } from '../../components/icons.tsx'
import { ScreenLayout } from '../../components/ScreenLayout.tsx'
import { Spinner } from '../../components/Spinner.tsx'
import { StatusIcon } from '../../components/StatusIcon.tsx'

export interface TelegramStatusScreenProps {
  /** The Telegram flow's state (core `createTelegramFlow`, or `useLoginWithTelegram().state`). */
  state: TelegramFlowState
  /** Offered as 'Retry' on a retryable failure (e.g. start the Telegram login again). */
  onRetry?: () => void
  onBack?: () => void
}

/**
 * Telegram's three statuses (spec 01 §4, §8): 'Verifying connection to
 * Telegram', 'Successfully connected with Telegram', or 'Authentication
 * failed' with the error's wording as detail and Retry when retryable.
 *
 * @example
 * <TelegramStatusScreen state={state} onRetry={() => redirectToTelegram()} />
 */
export function TelegramStatusScreen({ state, onRetry, onBack }: TelegramStatusScreenProps) {
  if (state.status === 'failure') {
    const message = state.error.userMessage
    const detail = state.error.code === 'AUTHENTICATION_FAILED' ? message.detail : message.title
    return (
      <ScreenLayout
        title="Authentication failed"
        subtitle={detail}
        onBack={onBack}
        media={
          <StatusIcon tone="error">
            <AlertIcon />
          </StatusIcon>
        }
      >
        <div className="lk-actions">
          {state.retryable && onRetry && (
            <button type="button" className="lk-btn lk-btn-primary" onClick={onRetry} autoFocus>
              Retry
            </button>
          )}
        </div>
      </ScreenLayout>
    )
  }
  if (state.status === 'success')
    return (
      <ScreenLayout
        title="Successfully connected with Telegram"
        media={
          <StatusIcon tone="success">
            <CheckIcon />
          </StatusIcon>
        }
      >
        <p className="lk-visually-hidden" role="status">
          Successfully connected with Telegram
        </p>
      </ScreenLayout>
    )
  return (
    <ScreenLayout title="Verifying connection to Telegram" onBack={onBack}>
      <div className="lk-status">
        <Spinner label="Verifying connection to Telegram" />
      </div>
    </ScreenLayout>
  )
}
