import type { ErrorCode } from '@latchkey/protocol/errors'
import { errorMessages, userMessageLine } from '@latchkey/protocol/errors'
import type { OAuthProvider } from '@latchkey/protocol/schemas'
import { ConnectionStatus } from '../../components/ConnectionStatus.tsx'
import { oauthProviderName } from './providers.tsx'

export interface OAuthStatusScreenProps {
  provider: OAuthProvider
  /** `useLoginWithOAuth().state.status`; 'initial' and 'loading' show the verifying status. */
  status: 'initial' | 'loading' | 'done' | 'error'
  /** The failure's code (`state.error.code`); its catalogue wording (title and detail) is the detail line. */
  errorCode?: ErrorCode | null
  /** Shown instead of the code's catalogue wording (the server's message, where the spec says so). */
  errorMessage?: string
  /** Offered as 'Retry' when the error is retryable (e.g. start the provider login again). */
  onRetry?: () => void
  onBack?: () => void
}

/**
 * Social login status (spec 01 §4 "OAuth", §8): 'Verifying connection to
 * {provider}', 'Successfully connected with {provider}', or 'Authentication
 * failed' with the error's wording and Retry when it is retryable.
 *
 * @example
 * <OAuthStatusScreen provider="google" status={state.status} errorCode={state.error?.code} onRetry={retry} />
 */
export function OAuthStatusScreen({
  provider,
  status,
  errorCode,
  errorMessage,
  onRetry,
  onBack,
}: OAuthStatusScreenProps) {
  const name = oauthProviderName(provider)
  if (status === 'error') {
    const message = errorMessages[errorCode ?? 'INTERNAL_ERROR'] ?? errorMessages.INTERNAL_ERROR
    return (
      <ConnectionStatus
        name={name}
        status="failure"
        // The title, then what to do where the catalogue says it ('… Retry and check the box …').
        detail={errorMessage ?? userMessageLine(message)}
        onRetry={message.retryable ? onRetry : undefined}
        onBack={onBack}
      />
    )
  }
  return (
    <ConnectionStatus
      name={name}
      status={status === 'done' ? 'success' : 'verifying'}
      onBack={onBack}
    />
  )
}
