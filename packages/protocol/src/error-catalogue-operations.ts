import type { ErrorCode } from './error-codes.ts'
import type { UserMessage } from './user-message.ts'

/** Operations (docs/operations.md): codes for load balancers and operators, never shown on a screen. */
export const operationsErrorMessages = {
  NOT_READY: { title: 'The server is not ready to serve requests', retryable: true },
} satisfies Partial<Record<ErrorCode, UserMessage>>
