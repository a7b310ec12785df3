import type { ErrorCode } from '@latchkey/protocol/errors'
import { errorMessages } from '@latchkey/protocol/errors'
import type { OAuthProvider } from '@latchkey/protocol/schemas'
import { AlertIcon, CheckIcon } from '../../components/icons.tsx'
import { ScreenLayout } from '../../components/ScreenLayout.tsx'
import { Spinner } from '../../components/Spinner.tsx'
import { StatusIcon } from '../../components/StatusIcon.tsx'
import { oauthProviderName } from './providers.tsx'

export interface OAuthStatusScreenProps {
  provider: OAuthProvider
  /** `useLoginWithOAuth().state.status`; 'initial' and 'loading' show the verifying status. */
  status: 'initial' | 'loading' | 'done' | 'error'
  /** The failure's code (`state.error.code`); its spec wording is the detail line. */
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
      <ScreenLayout
        title="Authentication failed"
        subtitle={errorMessage ?? message.title}
        onBack={onBack}
        media={
          <StatusIcon tone="error">
            <AlertIcon />
          </StatusIcon>
        }
      >
        <div className="lk-actions">
          {message.retryable && onRetry && (
            <button type="button" className="lk-btn lk-btn-primary" onClick={onRetry} autoFocus>
              Retry
            </button>
          )}
        </div>
      </ScreenLayout>
    )
  }
  if (status === 'done')
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
