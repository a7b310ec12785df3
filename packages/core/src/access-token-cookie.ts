import { ACCESS_TOKEN_COOKIE, StorageKey } from '@latchkey/protocol/constants'
import { decodeJwt } from './jwt.ts'
import type { CookieJar, KeyValueStorage } from './storage.ts'

/**
 * Wraps the token storage so every write of the access token also writes it
 * to the first-party cookie `latchkey-token` (SameSite=Strict, Secure on
 * https, expiring with the token), and every removal removes it: the app's
 * own server can then read the session while rendering, e.g. a Next.js
 * server component through `verifyAccessToken` (docs/nextjs.md). Only the
 * short-lived access token goes there; the refresh and identity tokens stay
 * in storage. A token already stored (the option turned on for a user who
 * is logged in) is copied at once.
 *
 * @example
 * const storage = mirrorAccessTokenCookie(createLocalStorage(), createDocumentCookies())
 */
export function mirrorAccessTokenCookie(
  storage: KeyValueStorage,
  cookies: CookieJar,
  now: () => number = Date.now,
): KeyValueStorage {
  const write = (token: string | null) => {
    const exp = token ? decodeJwt(token)?.exp : undefined
    const maxAge = typeof exp === 'number' ? Math.floor(exp - now() / 1000) : 0
    // An expired token is no session to render with: the client refreshes it when used.
    if (token && maxAge > 0) cookies.set(ACCESS_TOKEN_COOKIE, token, maxAge)
    else if (cookies.get(ACCESS_TOKEN_COOKIE) !== null) cookies.remove(ACCESS_TOKEN_COOKIE)
  }
  const stored = storage.get(StorageKey.accessToken)
  if (stored !== cookies.get(ACCESS_TOKEN_COOKIE)) write(stored)
  return {
    get: (key) => storage.get(key),
    set(key, value) {
      storage.set(key, value)
      if (key === StorageKey.accessToken) write(value)
    },
    remove(key) {
      storage.remove(key)
      if (key === StorageKey.accessToken) write(null)
    },
    ...(storage.watch ? { watch: storage.watch.bind(storage) } : {}),
  }
}
