import type { ErrorCode } from './error-codes.ts'
import type { UserMessage } from './user-message.ts'

/** Cross-app login and transact (spec 03 §8 "Cross-app" and "Transactions"; docs/cross-app.md). */
export const crossAppErrorMessages = {
  // Spec 03 §8 "Cross-app": `{app}` is the provider app's name.
  CROSS_APP_CONNECT_FAILED: {
    title: 'There was an issue connecting your {app} account. Please try again.',
    retryable: true,
  },
  CROSS_APP_CANCELED: { title: 'User canceled flow', retryable: true },
  CROSS_APP_TIMEOUT: {
    title: 'Cross-app authorization timed out after 2 minutes',
    retryable: true,
  },
  CROSS_APP_REJECTED: { title: 'User rejected request', retryable: true },
  CROSS_APP_INVALID_APP: { title: 'Invalid connected app' },
  // Spec 03 §5: the returned state must equal the stored one.
  CROSS_APP_STATE_MISMATCH: { title: 'Unexpected auth flow. This may be a phishing attempt.' },
  // Spec 03 §8 "Transactions".
  CROSS_APP_INVALID_TOKEN: { title: 'Transactions require a valid token' },
  CROSS_APP_READ_ONLY: { title: 'Cannot transact against a read-only provider app' },
  CROSS_APP_ADDRESS_NOT_CONNECTED: {
    title: 'Cannot request a signature with this wallet address',
  },
  // Spec 03 §8: the provider app's details (its page) could not be read before the popup.
  CROSS_APP_SIGNATURE_INIT_FAILED: {
    title: 'Failed to initialize signature request',
    retryable: true,
  },
} satisfies Partial<Record<ErrorCode, UserMessage>>
