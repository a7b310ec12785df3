import { routes } from '@latchkey/protocol'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { getOAuthTestInstance, type OAuthTestInstance } from './oauth.fixture.ts'

// Spec 01 §6/§8: a user who denies at the provider (the return carries no
// code; the browser sends 'undefined') or a code the provider refuses ends in
// 'Invalid code during OAuth flow.', no user, no session.
let t: OAuthTestInstance
beforeAll(async () => {
  t = await getOAuthTestInstance()
})
afterAll(() => t.close())

const authenticate = (provider: string, r: { code: string; state: string; verifier: string }) =>
  t.request(routes.oauthAuthenticate, {
    body: { provider, authorization_code: r.code, state_code: r.state, code_verifier: r.verifier },
  })

it.each(['google', 'github'] as const)(
  '%s: a denial returns access_denied; authenticating it is 400 OAUTH_INVALID_CODE',
  async (provider) => {
    const users = await t.countRows('users')
    const r = await t.redirect(provider, { deny: true })
    expect(r.back.searchParams.get('error')).toBe('access_denied')
    expect(r.back.searchParams.get('state')).toBe(r.state)
    const res = await authenticate(provider, r)
    expect(res).toMatchObject({
      status: 400,
      body: { code: 'OAUTH_INVALID_CODE', message: 'Invalid code during OAuth flow.' },
    })
    expect(await t.countRows('users')).toBe(users)
  },
)

it.each(['google', 'github'] as const)(
  '%s: a code the provider does not know is 400 OAUTH_INVALID_CODE',
  async (provider) => {
    const r = await t.redirect(provider)
    const res = await authenticate(provider, { ...r, code: 'forged-code' })
    expect(res).toMatchObject({ status: 400, body: { code: 'OAUTH_INVALID_CODE' } })
  },
)

it('a code works once at the provider: reusing it with a fresh state is refused', async () => {
  const r = await t.redirect('github')
  expect((await authenticate('github', r)).status).toBe(200)
  const fresh = await t.redirect('github')
  const res = await authenticate('github', { ...fresh, code: r.code })
  expect(res).toMatchObject({ status: 400, body: { code: 'OAUTH_INVALID_CODE' } })
})
