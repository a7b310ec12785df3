import type { TelegramFlowState } from '@latchkey/core'
import { ConnectionStatus } from '../../components/ConnectionStatus.tsx'

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
    return (
      <ConnectionStatus
        name="Telegram"
        status="failure"
        detail={state.error.code === 'AUTHENTICATION_FAILED' ? message.detail : message.title}
        onRetry={state.retryable ? onRetry : undefined}
        onBack={onBack}
      />
    )
  }
  return (
    <ConnectionStatus
      name="Telegram"
      status={state.status === 'success' ? 'success' : 'verifying'}
      onBack={onBack}
    />
  )
}
