/**
 * What each limit does while its store (Redis) does not answer
 * (docs/operations.md "Failures"). A limit that guards a send, a code or key
 * check, or a write FAILS CLOSED: the request is refused with 503
 * SERVICE_UNAVAILABLE (and `Retry-After`), since serving it unlimited would
 * hand an attacker free code guesses, free SMS or free key requests for as
 * long as Redis is away. A limit that guards a read which writes nothing and
 * proves nothing FAILS OPEN: the request is served uncounted.
 *
 * Limits are named by their key's purpose, the part before the first `:`
 * (`otp-send-ip:203.0.113.9` → `otp-send-ip`); a purpose not listed here
 * fails closed.
 */
export const FAIL_OPEN_LIMITS: ReadonlySet<string> = new Set([
  // GET /token_price (prices/routes.ts): a cached public price.
  'token-price-ip',
])

/** The limit a key counts for: its purpose, the part before the first `:`. */
export const limitNameOf = (key: string): string => key.slice(0, Math.max(0, key.indexOf(':')))

/**
 * True when a hit on `key` is served uncounted while the store is away.
 *
 * @example
 * failsOpen('token-price-ip:203.0.113.9') // true
 * failsOpen('otp-send:app1:email:a@b.co') // false
 */
export const failsOpen = (key: string): boolean => FAIL_OPEN_LIMITS.has(limitNameOf(key))
