import type { ErrorCode } from './error-codes.ts'
import type { UserMessage } from './user-message.ts'

/** The Farcaster signer (spec 03 §8 "Farcaster"; docs/farcaster-signer.md). */
export const farcasterSignerErrorMessages = {
  // Spec 03 §8: a missing public key or Farcaster account; the user declined the request.
  FARCASTER_SIGNER_CONNECT_FAILED: { title: 'Connect failed', retryable: true },
  FARCASTER_SIGNER_REJECTED: { title: 'Request rejected', retryable: true },
  // Not in the spec: the app's own setup is missing; the detail tells its developer.
  FARCASTER_SIGNER_NOT_CONFIGURED: {
    title: 'Farcaster signers are not set up for this app',
    detail:
      'The app has no Farcaster requesting FID and custody key (apps credentials set … farcaster-signer).',
  },
  // Not in the spec: a status asked for a key this user never requested a signer for.
  FARCASTER_SIGNER_NOT_FOUND: { title: 'Connect failed', retryable: true },
} satisfies Partial<Record<ErrorCode, UserMessage>>
