import type { ErrorCode } from './error-codes.ts'
import type { UserMessage } from './user-message.ts'

/**
 * Operations (docs/operations.md): NOT_READY is for load balancers, never
 * shown on a screen; SERVICE_UNAVAILABLE reaches a screen only once the
 * client's own retries of a 503 ran out.
 */
export const operationsErrorMessages = {
  NOT_READY: { title: 'The server is not ready to serve requests', retryable: true },
  SERVICE_UNAVAILABLE: {
    title: 'Service temporarily unavailable. Please try again.',
    retryable: true,
  },
} satisfies Partial<Record<ErrorCode, UserMessage>>
