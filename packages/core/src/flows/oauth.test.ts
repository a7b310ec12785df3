import { routes } from '@latchkey/protocol/routes'
import { afterEach, describe, expect, it } from 'vitest'
import { createLatchkeyClient } from '../client.ts'
import { getRecentLoginMethod } from '../recent-login.ts'
import { createMemoryStorage } from '../storage.ts'
import { APP_ID, authResponse, createFakeFetch, json, wireUser } from '../test/fake-server.ts'
import { pkceChallenge } from '../wallets/cloudRecovery.ts'
import {
  completeOAuth,
  initOAuth,
  OAUTH_LOGIN_MAX_AGE_MS,
  oauthPendingKey,
  takeOAuthReturn,
} from './oauth.ts'

const PAGE = 'https://app.example/login'

function setup(handler?: Parameters<typeof createFakeFetch>[0]) {
  const fake = createFakeFetch(
    handler ??
      ((call) =>
        call.url.endsWith(routes.oauthInit)
          ? json(200, { url: 'https://accounts.example/auth?x=1' })
          : json(200, {
              ...authResponse({ exp: Math.floor(Date.now() / 1000) + 3600 }),
              is_new_user: true,
              oauth_tokens: {
                provider: 'github',
                access_token: 'gho_x',
                access_token_expires_in_seconds: null,
                refresh_token: null,
                refresh_token_expires_in_seconds: null,
                scopes: ['read:user'],
              },
            })),
  )
  const storage = createMemoryStorage()
  const client = createLatchkeyClient({
    appId: APP_ID,
    apiUrl: 'http://localhost:8787',
    fetch: fake.fetch,
    storage,
    cookies: { get: () => null, set() {}, remove() {} },
  })
  return { client, calls: fake.calls, storage }
}

async function start(client: ReturnType<typeof setup>['client'], extra: object = {}) {
  let navigatedTo = ''
  await initOAuth(client, {
    provider: 'github',
    redirectTo: PAGE,
    navigate: (url) => {
      navigatedTo = url
    },
    now: () => 1_000,
    ...extra,
  })
  return navigatedTo
}

const sentBody = (calls: Array<{ body: unknown }>) => calls[0]?.body as Record<string, string>

afterEach(() => sessionStorage.clear())

describe('initOAuth', () => {
  it('sends provider, redirect, S256 challenge and a 256-bit state naming the provider, then navigates', async () => {
    const { client, calls } = setup()
    expect(await start(client)).toBe('https://accounts.example/auth?x=1')
    const body = sentBody(calls)
    expect(calls[0]?.url).toBe(`http://localhost:8787${routes.oauthInit}`)
    expect(body).toMatchObject({ provider: 'github', redirect_to: PAGE, intent: 'login' })
    expect(body.state_code).toMatch(/^github\.[A-Za-z0-9_-]{43}$/)
    const pending = JSON.parse(sessionStorage.getItem(oauthPendingKey(APP_ID)) ?? '{}')
    expect(pending.stateCode).toBe(body.state_code)
    expect(await pkceChallenge(pending.codeVerifier)).toBe(body.code_challenge)
  })

  it('keeps nothing when the server refuses', async () => {
    const { client } = setup(() =>
      json(403, { code: 'LOGIN_METHOD_NOT_ALLOWED', message: 'Not allowed' }),
    )
    await expect(start(client)).rejects.toMatchObject({ code: 'LOGIN_METHOD_NOT_ALLOWED' })
    expect(sessionStorage.getItem(oauthPendingKey(APP_ID))).toBeNull()
  })
})

describe('takeOAuthReturn', () => {
  it('reads code and state once and removes them from the address', async () => {
    const { client, calls } = setup()
    await start(client)
    const state = sentBody(calls).state_code
    let replaced = ''
    const ret = takeOAuthReturn(client, {
      url: `${PAGE}?keep=1&code=abc&state=${state}`,
      now: 2_000,
      replaceUrl: (u) => {
        replaced = u
      },
    })
    expect(ret).toMatchObject({ ok: true, provider: 'github', authorizationCode: 'abc' })
    expect(replaced).toBe(`${PAGE}?keep=1`)
    // Once: the address it leaves carries no return.
    expect(takeOAuthReturn(client, { url: replaced, now: 2_000 })).toBe(null)
  })

  it("leaves a return started by the modal to the modal, and the app's to the app", async () => {
    const { client, calls } = setup()
    await start(client, { ui: 'modal' })
    const url = `${PAGE}?code=abc&state=${sentBody(calls).state_code}`
    expect(takeOAuthReturn(client, { url, now: 2_000, ui: 'app', replaceUrl() {} })).toBe(null)
    expect(
      takeOAuthReturn(client, { url, now: 2_000, ui: 'modal', replaceUrl() {} }),
    ).toMatchObject({ ok: true, ui: 'modal', authorizationCode: 'abc' })
  })

  it("a code of 'undefined' is a denial: OAUTH_INVALID_CODE (spec 01 §5)", async () => {
    const { client, calls } = setup()
    await start(client)
    const state = sentBody(calls).state_code
    const ret = takeOAuthReturn(client, {
      url: `${PAGE}?code=undefined&state=${state}`,
      now: 2_000,
      replaceUrl() {},
    })
    expect(ret).toMatchObject({ ok: false, reason: 'denied' })
    if (ret && !ret.ok) expect(ret.error.userMessage.title).toBe('Invalid code during OAuth flow.')
  })

  it('a foreign state is OAUTH_STATE_MISMATCH (possible phishing)', async () => {
    const { client } = setup()
    await start(client)
    const ret = takeOAuthReturn(client, {
      url: `${PAGE}?code=abc&state=github.${'a'.repeat(43)}`,
      now: 2_000,
      replaceUrl() {},
    })
    expect(ret).toMatchObject({ ok: false, reason: 'state-mismatch' })
    if (ret && !ret.ok) expect(ret.error.code).toBe('OAUTH_STATE_MISMATCH')
  })

  it("leaves cloud recovery's return (its own state) alone", async () => {
    const { client } = setup()
    await start(client)
    sessionStorage.setItem(
      `latchkey:${APP_ID}:cloud-recovery`,
      JSON.stringify({ stateCode: 'cloud-state', codeVerifier: 'v', createdAt: 1_000 }),
    )
    const ret = takeOAuthReturn(client, {
      url: `${PAGE}?code=abc&state=cloud-state`,
      now: 2_000,
      replaceUrl() {},
    })
    expect(ret).toBeNull()
    expect(sessionStorage.getItem(oauthPendingKey(APP_ID))).not.toBeNull()
  })

  it('does not finish a pending login older than the limit: OAUTH_LOGIN_EXPIRED', async () => {
    const { client, calls } = setup()
    await start(client)
    const state = sentBody(calls).state_code
    const url = `${PAGE}?code=abc&state=${state}`
    const ret = takeOAuthReturn(client, {
      url,
      now: 1_000 + OAUTH_LOGIN_MAX_AGE_MS + 1,
      replaceUrl() {},
    })
    expect(ret).toMatchObject({ ok: false, reason: 'expired', provider: 'github' })
    expect(sessionStorage.getItem(oauthPendingKey(APP_ID))).toBeNull()
  })
})

describe('completeOAuth', () => {
  it('authenticates, applies the session and records the recent method', async () => {
    const { client, calls, storage } = setup()
    await start(client, { disableSignup: true })
    const state = sentBody(calls).state_code
    const ret = takeOAuthReturn(client, {
      url: `${PAGE}?code=abc&state=${state}`,
      now: 2_000,
      replaceUrl() {},
    })
    if (!ret) throw new Error('no return')
    const done = await completeOAuth(client, ret)
    expect(calls[1]?.url).toBe(`http://localhost:8787${routes.oauthAuthenticate}`)
    expect(calls[1]?.body).toMatchObject({
      provider: 'github',
      authorization_code: 'abc',
      state_code: state,
      mode: 'no-signup',
    })
    expect(done).toMatchObject({ provider: 'github', isNewUser: true })
    expect(done.oauthTokens?.access_token).toBe('gho_x')
    expect(client.session.getState().status).toBe('authenticated')
    expect(getRecentLoginMethod(storage, APP_ID)).toBe('github')
  })

  it('links with the session for a link intent', async () => {
    const { client, calls } = setup((call) =>
      call.url.endsWith(routes.oauthInit)
        ? json(200, { url: 'https://accounts.example/auth' })
        : json(200, wireUser()),
    )
    client.session.applyAuthResponse(authResponse({ exp: Math.floor(Date.now() / 1000) + 3600 }))
    await start(client, { intent: 'link' })
    expect(calls[0]?.headers.authorization).toMatch(/^Bearer /)
    const state = sentBody(calls).state_code
    const ret = takeOAuthReturn(client, {
      url: `${PAGE}?code=abc&state=${state}`,
      now: 2_000,
      replaceUrl() {},
    })
    if (!ret) throw new Error('no return')
    await completeOAuth(client, ret)
    expect(calls[1]?.url).toBe(`http://localhost:8787${routes.oauthLink}`)
    expect(calls[1]?.body).not.toHaveProperty('mode')
  })

  it('throws the return error without calling the server', async () => {
    const { client, calls } = setup()
    await start(client)
    const ret = takeOAuthReturn(client, {
      url: `${PAGE}?error=access_denied&state=${sentBody(calls).state_code}`,
      now: 2_000,
      replaceUrl() {},
    })
    if (!ret) throw new Error('no return')
    await expect(completeOAuth(client, ret)).rejects.toMatchObject({ code: 'OAUTH_USER_DENIED' })
    expect(calls).toHaveLength(1)
  })
})
