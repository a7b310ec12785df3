/**
 * Wire schemas of Sign In With Farcaster live in @latchkey/protocol
 * (schemas/farcaster.ts); re-exported next to the routes, as every login
 * method does.
 */
export {
  FARCASTER_CHANNEL_TOKEN_HEADER,
  farcasterAuthenticateRequestSchema,
  farcasterInitRequestSchema,
  farcasterInitResponseSchema,
  farcasterLinkRequestSchema,
  farcasterStatusResponseSchema,
  farcasterUnlinkRequestSchema,
} from '@latchkey/protocol'
export { FARCASTER_ACCOUNT_TYPE } from '../../users/service.ts'

/** Channels one client IP may open per app (each is a relay call and a row). */
export const FARCASTER_INITS_PER_IP = { limit: 30, windowMs: 10 * 60_000 }

/**
 * A channel outlives the client's 2-minute wait (FARCASTER_TIMEOUT_MS) by
 * this much, so a signature that arrives at the last poll can still be sent.
 */
export const FARCASTER_CHANNEL_SLACK_MS = 30_000
