import { routes } from '@latchkey/protocol'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { getOAuthTestInstance, type OAuthTestInstance } from './oauth.fixture.ts'

// Security bar 11 (RFC 7636, RFC 9700 §2.1.1): S256 only, and Latchkey
// itself checks that the verifier hashes to the challenge recorded at init
// (also for providers without PKCE), before any call to the provider.
let t: OAuthTestInstance
beforeAll(async () => {
  t = await getOAuthTestInstance()
})
afterAll(() => t.close())

const authenticate = (provider: string, r: { code: string; state: string }, verifier?: string) =>
  t.request(routes.oauthAuthenticate, {
    body: {
      provider,
      authorization_code: r.code,
      state_code: r.state,
      ...(verifier === undefined ? {} : { code_verifier: verifier }),
    },
  })

it('a missing verifier is 400 INVALID_PAYLOAD', async () => {
  const r = await t.redirect('google')
  expect(await authenticate('google', r)).toMatchObject({
    status: 400,
    body: { code: 'INVALID_PAYLOAD' },
  })
})

it.each(['google', 'github'] as const)(
  '%s: a wrong verifier is 400 OAUTH_INVALID_CODE and spends the state',
  async (provider) => {
    const r = await t.redirect(provider)
    const wrong = await authenticate(provider, r, 'w'.repeat(43))
    expect(wrong).toMatchObject({ status: 400, body: { code: 'OAUTH_INVALID_CODE' } })
    expect(wrong.body.message).toBe('Invalid code during OAuth flow.')
    expect(await authenticate(provider, r, r.verifier)).toMatchObject({
      status: 400,
      body: { code: 'OAUTH_STATE_MISMATCH' },
    })
  },
)

it.each([
  ['a plain challenge (the verifier itself, 50 chars)', 'v'.repeat(50)],
  ['a short verifier-length value', 'c'.repeat(42)],
])('init refuses %s', async (_label, challenge) => {
  const res = await t.request(routes.oauthInit, {
    body: {
      provider: 'google',
      redirect_to: 'http://app.test/login',
      code_challenge: challenge,
      state_code: 'p'.repeat(22),
    },
  })
  expect(res).toMatchObject({ status: 400, body: { code: 'INVALID_PAYLOAD' } })
})

it('a verifier shorter than 43 characters is refused by the schema', async () => {
  const r = await t.redirect('google')
  expect(await authenticate('google', r, 'short')).toMatchObject({
    status: 400,
    body: { code: 'INVALID_PAYLOAD' },
  })
})
