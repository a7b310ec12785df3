import { routes } from '@latchkey/protocol/routes'
import { afterEach, describe, expect, it } from 'vitest'
import { createLatchkeyClient } from '../client.ts'
import { createMemoryStorage } from '../storage.ts'
import { APP_ID, createFakeFetch, json } from '../test/fake-server.ts'
import { initOAuth, oauthPendingKey, takeOAuthReturn } from './oauth.ts'
import { oauthReturnInUrl, providerOfOAuthState } from './oauth-state.ts'
import { redirectLoginPending } from './pending-keys.ts'

// Spec 01 §2, §4 "OAuth": the return is active only when authorization code,
// state code and provider are all in the URL, and then all three are removed,
// whether or not this tab can finish the login (docs/login-oauth.md "Flow").

const PAGE = 'https://app.example/login'
const OUR_STATE = `google.${'Q'.repeat(43)}`

function setup() {
  const fake = createFakeFetch(() => json(200, { url: 'https://accounts.example/auth' }))
  const client = createLatchkeyClient({
    appId: APP_ID,
    apiUrl: 'http://localhost:8787',
    fetch: fake.fetch,
    storage: createMemoryStorage(),
    cookies: { get: () => null, set() {}, remove() {} },
  })
  return { client, calls: fake.calls }
}

/** Takes the return at `query`, recording the address it leaves behind. */
function take(client: ReturnType<typeof setup>['client'], query: string, ui?: 'modal' | 'app') {
  let left: string | null = null
  const ret = takeOAuthReturn(client, {
    url: `${PAGE}?${query}`,
    now: 2_000,
    ui,
    replaceUrl: (to) => {
      left = to
    },
  })
  return { ret, left: left as string | null }
}

async function startGoogle(client: ReturnType<typeof setup>['client']) {
  await initOAuth(client, {
    provider: 'google',
    redirectTo: PAGE,
    navigate() {},
    now: () => 1_000,
  })
  return JSON.parse(sessionStorage.getItem(oauthPendingKey(APP_ID)) ?? '{}').stateCode as string
}

afterEach(() => sessionStorage.clear())

describe('the state code names the provider', () => {
  it('initOAuth sends {provider}.{43 base64url characters}', async () => {
    const { client, calls } = setup()
    const state = await startGoogle(client)
    expect(calls[0]?.url).toBe(`http://localhost:8787${routes.oauthInit}`)
    expect(calls[0]?.body).toMatchObject({ state_code: state })
    expect(providerOfOAuthState(state)).toBe('google')
  })

  it('reads only our shape and our providers', () => {
    expect(providerOfOAuthState(OUR_STATE)).toBe('google')
    expect(providerOfOAuthState(`tiktok.${'a'.repeat(43)}`)).toBe('tiktok')
    expect(providerOfOAuthState('Q'.repeat(43))).toBeNull()
    expect(providerOfOAuthState(`myspace.${'a'.repeat(43)}`)).toBeNull()
    expect(providerOfOAuthState(`google.${'a'.repeat(42)}`)).toBeNull()
    expect(providerOfOAuthState(null)).toBeNull()
  })
})

describe('without all three, nothing starts and nothing is removed', () => {
  it.each([
    ['code and a state naming no provider', `code=abc&state=${'Q'.repeat(43)}`],
    ['a state naming a provider, no code', `state=${OUR_STATE}`],
    ['a code, no state', 'code=abc'],
    ['an error alone', 'error=access_denied'],
    ['an error with a state naming no provider', 'error=access_denied&state=s'],
  ])('%s', async (_, query) => {
    const { client } = setup()
    await startGoogle(client)
    expect(take(client, query)).toEqual({ ret: null, left: null })
    expect(oauthReturnInUrl(`?${query}`)).toBe(false)
    // The pending login waits for its own return.
    expect(sessionStorage.getItem(oauthPendingKey(APP_ID))).not.toBeNull()
  })
})

describe('with all three, all are removed', () => {
  it('with no pending login in this tab (another tab, or cleared): OAUTH_LOGIN_EXPIRED', () => {
    const { client } = setup()
    const { ret, left } = take(client, `keep=1&code=abc&state=${OUR_STATE}&scope=openid`)
    expect(ret).toMatchObject({ ok: false, provider: 'google', reason: 'expired' })
    if (ret && !ret.ok) expect(ret.error.code).toBe('OAUTH_LOGIN_EXPIRED')
    expect(left).toBe(`${PAGE}?keep=1`)
  })

  it('a return with no pending login goes to whichever UI asks first', () => {
    const { client } = setup()
    expect(take(client, `code=abc&state=${OUR_STATE}`, 'modal').ret).toMatchObject({
      ok: false,
      ui: 'modal',
    })
  })

  it('the provider (Google) is read from the URL, not from the tab', async () => {
    const { client } = setup()
    const state = await startGoogle(client)
    const { ret, left } = take(client, `code=abc&state=${state}`)
    expect(ret).toMatchObject({ ok: true, provider: 'google', authorizationCode: 'abc' })
    expect(left).toBe(PAGE)
    expect(sessionStorage.getItem(oauthPendingKey(APP_ID))).toBeNull()
  })

  it('the provider tells the React provider to look, with no pending login', () => {
    history.replaceState(null, '', `/?code=abc&state=${OUR_STATE}`)
    try {
      expect(redirectLoginPending(APP_ID)).toBe(true)
      history.replaceState(null, '', '/?code=abc&state=theirs')
      expect(redirectLoginPending(APP_ID)).toBe(false)
    } finally {
      history.replaceState(null, '', '/')
    }
  })
})

describe("a provider's refusal (RFC 6749 §4.1.2.1 `error` in place of the code)", () => {
  it.each([
    ['error=access_denied', 'OAUTH_USER_DENIED', 'User denied confirmation during OAuth flow'],
    [
      'error=access_denied&error_description=Your+account+is+suspended',
      'OAUTH_ACCOUNT_SUSPENDED',
      'account suspended, try another method',
    ],
    ['error=temporarily_unavailable', 'OAUTH_PROVIDER_ERROR', 'Something went wrong. Try again.'],
    ['error=invalid_scope', 'OAUTH_INVALID_CODE', 'Invalid code during OAuth flow.'],
    ['code=undefined', 'OAUTH_INVALID_CODE', 'Invalid code during OAuth flow.'],
  ])('%s → %s', async (query, code, title) => {
    const { client } = setup()
    const state = await startGoogle(client)
    const { ret, left } = take(client, `${query}&state=${state}&error_uri=x`)
    expect(ret).toMatchObject({ ok: false, provider: 'google' })
    if (ret && !ret.ok) {
      expect(ret.error.code).toBe(code)
      expect(ret.error.userMessage.title).toBe(title)
    }
    expect(left).toBe(PAGE)
  })

  it('a refusal is shown even when the tab lost its pending login', () => {
    const { client } = setup()
    const { ret, left } = take(client, `error=access_denied&state=${OUR_STATE}`)
    if (ret?.ok !== false) throw new Error('expected a failure')
    expect(ret.error.code).toBe('OAUTH_USER_DENIED')
    expect(left).toBe(PAGE)
  })
})
