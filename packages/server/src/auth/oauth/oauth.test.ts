import { routes } from '@latchkey/protocol'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { getOAuthTestInstance, type OAuthTestInstance, REDIRECT_TO } from './oauth.fixture.ts'

// OAuth login end to end against a real OpenID Provider (oidc-provider, as
// Google) and a GitHub look-alike: init → provider → authenticate / link / unlink.
let t: OAuthTestInstance
beforeAll(async () => {
  t = await getOAuthTestInstance({ returnProviderTokens: true })
})
afterAll(() => t.close())

const authenticate = (r: { code: string; state: string; verifier: string }, extra: object = {}) =>
  t.request(routes.oauthAuthenticate, {
    body: {
      provider: 'google',
      authorization_code: r.code,
      state_code: r.state,
      code_verifier: r.verifier,
      mode: 'login-or-sign-up',
      ...extra,
    },
  })

describe('init', () => {
  it('answers the provider URL with client, redirect, state, S256 challenge and nonce', async () => {
    const res = await t.request(routes.oauthInit, {
      body: {
        provider: 'google',
        redirect_to: REDIRECT_TO,
        code_challenge: 'A'.repeat(43),
        state_code: 'S'.repeat(22),
      },
    })
    expect(res.status).toBe(200)
    const url = new URL(res.body.url)
    expect(url.origin + url.pathname).toBe(t.oidc.endpoints.authorizationUrl)
    expect(Object.fromEntries(url.searchParams)).toMatchObject({
      client_id: t.oidc.clientId,
      redirect_uri: REDIRECT_TO,
      response_type: 'code',
      scope: 'openid email profile',
      state: 'S'.repeat(22),
      code_challenge: 'A'.repeat(43),
      code_challenge_method: 'S256',
    })
    expect(url.searchParams.get('nonce')).toMatch(/^[A-Za-z0-9_-]{43}$/)
  })

  it('refuses a provider the app has not switched on (403 LOGIN_METHOD_NOT_ALLOWED)', async () => {
    const res = await t.request(routes.oauthInit, {
      body: {
        provider: 'discord',
        redirect_to: REDIRECT_TO,
        code_challenge: 'A'.repeat(43),
        state_code: 'T'.repeat(22),
      },
    })
    expect(res).toMatchObject({ status: 403, body: { code: 'LOGIN_METHOD_NOT_ALLOWED' } })
  })

  it('a link init needs a session (401 without a bearer token)', async () => {
    const res = await t.request(routes.oauthInit, {
      body: {
        provider: 'google',
        redirect_to: REDIRECT_TO,
        code_challenge: 'A'.repeat(43),
        state_code: 'U'.repeat(22),
        intent: 'link',
      },
    })
    expect(res).toMatchObject({ status: 401, body: { code: 'UNAUTHORIZED' } })
  })
})

describe('login with an OpenID provider (Google shape)', () => {
  it('signs up, then logs the same subject in again; keyed by subject', async () => {
    const first = await authenticate(await t.redirect('google', { accountId: 'alice-sub' }))
    expect(first.status).toBe(200)
    expect(first.body.is_new_user).toBe(true)
    expect(first.body.token).toEqual(expect.any(String))
    expect(first.body.user.linked_accounts).toEqual([
      expect.objectContaining({
        type: 'google',
        subject: 'alice-sub',
        email: 'alice@example.com',
        name: 'Alice',
      }),
    ])
    const again = await authenticate(await t.redirect('google', { accountId: 'alice-sub' }))
    expect(again.status).toBe(200)
    expect(again.body.is_new_user).toBe(false)
    expect(again.body.user.id).toBe(first.body.user.id)
  })

  it('returns the provider tokens when the app asks for them', async () => {
    const res = await authenticate(await t.redirect('google', { accountId: 'alice-sub' }))
    expect(res.body.oauth_tokens).toMatchObject({
      provider: 'google',
      access_token: expect.any(String),
      access_token_expires_in_seconds: expect.any(Number),
      scopes: expect.arrayContaining(['openid', 'email']),
    })
  })

  it("mode 'no-signup' refuses an unknown subject (404 USER_DOES_NOT_EXIST)", async () => {
    const res = await authenticate(await t.redirect('google', { accountId: 'carol-sub' }), {
      mode: 'no-signup',
    })
    expect(res).toMatchObject({ status: 404, body: { code: 'USER_DOES_NOT_EXIST' } })
  })
})

describe('login with GitHub (OAuth + REST user API)', () => {
  it('signs up with the id as subject, login as username and the verified primary email', async () => {
    const r = await t.redirect('github')
    const res = await t.request(routes.oauthAuthenticate, {
      body: {
        provider: 'github',
        authorization_code: r.code,
        state_code: r.state,
        code_verifier: r.verifier,
        mode: 'login-or-sign-up',
      },
    })
    expect(res.status).toBe(200)
    expect(res.body.user.linked_accounts).toEqual([
      expect.objectContaining({
        type: 'github',
        subject: '4242',
        username: 'octocat',
        name: 'The Octocat',
        email: 'octo@example.com',
        profile_picture_url: 'https://avatars.example/u/4242',
      }),
    ])
    expect(res.body.oauth_tokens).toMatchObject({
      provider: 'github',
      scopes: ['read:user', 'user:email'],
    })
  })
})

describe('link and unlink', () => {
  it('links GitHub to an email user, then unlinks it', async () => {
    const session = await t.login('linker@example.com')
    const r = await t.redirect('github', { token: session.token ?? '' })
    const linked = await t.request(routes.oauthLink, {
      token: session.token ?? '',
      body: {
        provider: 'github',
        authorization_code: r.code,
        state_code: r.state,
        code_verifier: r.verifier,
      },
    })
    // octocat is already a user from the GitHub login test, with no other
    // login method: a transfer is offered (users/transfer.test.ts), not made.
    expect(linked).toMatchObject({
      status: 400,
      body: { code: 'ACCOUNT_TRANSFER_REQUIRED', details: { account: { type: 'github' } } },
    })

    t.github.accounts.set('hubot', { id: 7, login: 'hubot', name: null, emails: [] })
    const r2 = await t.redirect('github', { token: session.token ?? '', accountId: 'hubot' })
    const ok = await t.request(routes.oauthLink, {
      token: session.token ?? '',
      body: {
        provider: 'github',
        authorization_code: r2.code,
        state_code: r2.state,
        code_verifier: r2.verifier,
      },
    })
    expect(ok.status).toBe(200)
    expect(ok.body.linked_accounts.map((a: { type: string }) => a.type)).toEqual([
      'email',
      'github',
    ])
    const unlinked = await t.request(routes.oauthUnlink, {
      token: session.token ?? '',
      body: { provider: 'github', subject: '7' },
    })
    expect(unlinked.status).toBe(200)
    expect(unlinked.body.linked_accounts.map((a: { type: string }) => a.type)).toEqual(['email'])
  })
})
