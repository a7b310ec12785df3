import { createHmac, randomBytes } from 'node:crypto'
import { PROVIDER_CREDENTIALS_PURPOSE } from '../apps/credentials.ts'
import { type SecretBox, safeEqual } from '../crypto/secrets.ts'

/*
 * Coinbase Onramp's `partnerUserRef` (our `partner_user_id`): the id its
 * Transaction Status API lists a session's purchases under. Each session
 * gets a fresh one — 12 random bytes and a 16-byte HMAC tag over them and
 * the app and user — so the status route can check, without storing
 * anything, that an id was made for the caller: another user's id, or one
 * made up, fails the tag. 38 characters (Coinbase: under 50).
 */

const NONCE_BYTES = 12
const TAG_BYTES = 16
const NONCE_CHARS = 16

/** The HMAC key: derived from the provider-credentials key, for this use only. */
function tagKey(secrets: SecretBox): Buffer {
  return createHmac('sha256', secrets.deriveKey(PROVIDER_CREDENTIALS_PURPOSE))
    .update('latchkey coinbase-onramp partner_user_ref v1')
    .digest()
}

function tag(secrets: SecretBox, nonce: string, appId: string, userId: string): string {
  return createHmac('sha256', tagKey(secrets))
    .update(JSON.stringify([nonce, appId, userId]))
    .digest()
    .subarray(0, TAG_BYTES)
    .toString('base64url')
}

/** A new partner user ref for one Onramp session of `userId` in `appId`. */
export function newPartnerUserRef(secrets: SecretBox, appId: string, userId: string): string {
  const nonce = randomBytes(NONCE_BYTES).toString('base64url')
  return `${nonce}${tag(secrets, nonce, appId, userId)}`
}

/** True when `ref` was made by {@link newPartnerUserRef} for this user and app (constant-time). */
export function isPartnerUserRefOf(
  secrets: SecretBox,
  ref: string,
  appId: string,
  userId: string,
): boolean {
  if (ref.length !== NONCE_CHARS + 22) return false
  const nonce = ref.slice(0, NONCE_CHARS)
  return safeEqual(ref.slice(NONCE_CHARS), tag(secrets, nonce, appId, userId))
}
