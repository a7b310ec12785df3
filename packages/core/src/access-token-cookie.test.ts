import { ACCESS_TOKEN_COOKIE, StorageKey } from '@latchkey/protocol/constants'
import { afterEach, describe, expect, it } from 'vitest'
import { mirrorAccessTokenCookie } from './access-token-cookie.ts'
import { createLatchkeyClient } from './client.ts'
import { type CookieJar, createDocumentCookies, createMemoryStorage } from './storage.ts'
import { APP_ID, authResponse, createFakeFetch, fakeJwt, json } from './test/fake-server.ts'

// docs/nextjs.md: with `accessTokenCookie` the access token is mirrored into
// the first-party cookie `latchkey-token`, for the app's own server to render
// with; without it no token ever reaches a cookie.

const NOW = 1_800_000_000_000
const inSeconds = (s: number) => Math.floor(NOW / 1000) + s

/**
 * The cookie as the page's own scripts (and so the browser's next request)
 * see it. happy-dom keeps a cookie removed with Max-Age=0 as an empty value
 * where a browser drops it: empty counts as absent.
 */
const pageCookie = (name: string) =>
  document.cookie
    .split('; ')
    .find((part) => part.startsWith(`${name}=`))
    ?.slice(name.length + 1) || null

/** A jar that remembers each write's lifetime. */
function recordingJar(): CookieJar & { maxAges: number[] } {
  const memory = createMemoryStorage()
  const maxAges: number[] = []
  return {
    maxAges,
    get: memory.get,
    set(name, value, maxAge) {
      maxAges.push(maxAge)
      memory.set(name, value)
    },
    remove: memory.remove,
  }
}

afterEach(() => {
  for (const name of [ACCESS_TOKEN_COOKIE, 'latchkey-session'])
    document.cookie = `${name}=; Max-Age=0; Path=/`
})

describe('accessTokenCookie', () => {
  const client = (accessTokenCookie: boolean, storage = createMemoryStorage()) =>
    createLatchkeyClient({
      appId: APP_ID,
      apiUrl: 'http://api.test',
      storage,
      accessTokenCookie,
      fetch: createFakeFetch(() => json(200, {})).fetch,
      now: () => NOW,
    })

  it('writes the access token to the page cookie on login and removes it on logout', async () => {
    const latchkey = client(true)
    const response = authResponse({ exp: inSeconds(3600), refresh: 'r1' })
    latchkey.session.applyAuthResponse(response)
    expect(pageCookie(ACCESS_TOKEN_COOKIE)).toBe(response.token)
    // Only the access token: the refresh token never leaves storage.
    expect(document.cookie).not.toContain('r1')
    await latchkey.session.logout()
    expect(pageCookie(ACCESS_TOKEN_COOKIE)).toBeNull()
    expect(latchkey.storage.get(StorageKey.accessToken)).toBeNull()
  })

  it('follows a refreshed token', () => {
    const latchkey = client(true)
    latchkey.session.applyAuthResponse(authResponse({ exp: inSeconds(3600) }))
    const next = { ...authResponse({ exp: inSeconds(7200) }), session_update_action: 'ignore' }
    latchkey.session.applyAuthResponse(next as ReturnType<typeof authResponse>)
    expect(pageCookie(ACCESS_TOKEN_COOKIE)).toBe(next.token)
  })

  it('is off by default: no token in any cookie', () => {
    client(false).session.applyAuthResponse(authResponse({ exp: inSeconds(3600) }))
    expect(pageCookie(ACCESS_TOKEN_COOKIE)).toBeNull()
    // The refresh marker is written either way (spec 01 §3).
    expect(pageCookie('latchkey-session')).toBe('t')
  })

  it('copies a token stored before the option was on', () => {
    const storage = createMemoryStorage()
    const token = fakeJwt({ sub: 'did:latchkey:u', aud: APP_ID, exp: inSeconds(600) })
    storage.set(StorageKey.accessToken, token)
    client(true, storage)
    expect(pageCookie(ACCESS_TOKEN_COOKIE)).toBe(token)
  })
})

describe('mirrorAccessTokenCookie', () => {
  it('lives exactly as long as the token', () => {
    const jar = recordingJar()
    const storage = mirrorAccessTokenCookie(createMemoryStorage(), jar, () => NOW)
    storage.set(StorageKey.accessToken, fakeJwt({ exp: inSeconds(1800) }))
    expect(jar.maxAges).toEqual([1800])
  })

  it('writes no cookie for an expired token and drops the one there', () => {
    const jar = recordingJar()
    jar.set(ACCESS_TOKEN_COOKIE, 'old', 60)
    const storage = mirrorAccessTokenCookie(createMemoryStorage(), jar, () => NOW)
    // Nothing stored: the stale cookie goes.
    expect(jar.get(ACCESS_TOKEN_COOKIE)).toBeNull()
    storage.set(StorageKey.accessToken, fakeJwt({ exp: inSeconds(-5) }))
    expect(jar.get(ACCESS_TOKEN_COOKIE)).toBeNull()
    expect(storage.get(StorageKey.accessToken)).not.toBeNull()
  })

  it('leaves other keys to storage alone', () => {
    const jar = recordingJar()
    const storage = mirrorAccessTokenCookie(createMemoryStorage(), jar, () => NOW)
    storage.set(StorageKey.refreshToken, 'r1')
    storage.set(StorageKey.identityToken, 'id')
    expect(jar.maxAges).toEqual([])
    expect(storage.get(StorageKey.refreshToken)).toBe('r1')
  })

  it('is SameSite=Strict and Path=/ in the page', () => {
    // Created first: it may drop a cookie an earlier test left in this document.
    const storage = mirrorAccessTokenCookie(
      createMemoryStorage(),
      createDocumentCookies(),
      () => NOW,
    )
    const writes: string[] = []
    let proto = Object.getPrototypeOf(document)
    while (proto && !Object.getOwnPropertyDescriptor(proto, 'cookie'))
      proto = Object.getPrototypeOf(proto)
    const descriptor = Object.getOwnPropertyDescriptor(proto, 'cookie')
    Object.defineProperty(document, 'cookie', {
      configurable: true,
      get: () => descriptor?.get?.call(document),
      set: (value: string) => {
        writes.push(value)
        descriptor?.set?.call(document, value)
      },
    })
    try {
      storage.set(StorageKey.accessToken, fakeJwt({ exp: inSeconds(60) }))
    } finally {
      Reflect.deleteProperty(document, 'cookie')
    }
    expect(writes).toHaveLength(1)
    expect(writes[0]).toMatch(/^latchkey-token=[^;]+; Max-Age=60; Path=\/; SameSite=Strict$/)
  })
})
