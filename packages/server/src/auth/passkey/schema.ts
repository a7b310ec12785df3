import type { RateLimitRule } from '../../config.ts'

/**
 * Wire schemas of passkey login live in @latchkey/protocol
 * (schemas/passkey.ts); re-exported next to the routes, as every login
 * method does.
 */
export {
  passkeyAuthenticateRequestSchema,
  passkeyInitRequestSchema,
  passkeyInitResponseSchema,
  passkeyLinkRequestSchema,
  passkeyRegisterRequestSchema,
  passkeyUnlinkRequestSchema,
} from '@latchkey/protocol'
export { PASSKEY_ACCOUNT_TYPE } from '../../users/service.ts'

/**
 * How long a challenge may be answered (security bar 23, WebAuthn §13.4.3):
 * also the `timeout` the browser is given, so the ceremony and the
 * challenge end together.
 */
export const PASSKEY_CHALLENGE_TTL_MS = 5 * 60_000

/** Random bytes in a challenge (WebAuthn §13.4.3 asks for at least 16). */
export const PASSKEY_CHALLENGE_BYTES = 32

/** Passkeys one user may hold (spec 01 §5, §9: "up to 5 passkeys"); shared with the client. */
export { MAX_PASSKEYS_PER_USER } from '@latchkey/protocol/constants'

/** Challenges one IP may request per app (each init writes a row). */
export const PASSKEY_INITS_PER_IP: RateLimitRule = { limit: 60, windowMs: 10 * 60_000 }

/**
 * COSE algorithms accepted for new passkeys: ES256 (every platform
 * authenticator), EdDSA, RS256 (Windows Hello on older TPMs).
 */
export const PASSKEY_ALGORITHMS: readonly number[] = [-7, -8, -257]
