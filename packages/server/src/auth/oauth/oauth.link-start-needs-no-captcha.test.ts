import { routes } from '@latchkey/protocol'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { altchaToken } from '../../captcha/testing.ts'
import { getOAuthTestInstance, type OAuthTestInstance } from './oauth.fixture.ts'

// Spec 01 §2: the captcha guards unauthenticated visitors. A signed-in user's
// link start (`useLinkAccount().linkOAuth`, which leaves for the provider
// straight from the app's button) is authenticated by its bearer token
// instead; without one it is refused, so the exemption opens nothing.
let t: OAuthTestInstance
beforeAll(async () => {
  t = await getOAuthTestInstance({ captcha: true })
})
afterAll(() => t.close())

const authenticate = (r: { code: string; state: string; verifier: string }) =>
  t.request(routes.oauthAuthenticate, {
    body: {
      provider: 'google',
      authorization_code: r.code,
      state_code: r.state,
      code_verifier: r.verifier,
      mode: 'login-or-sign-up',
    },
  })

it('a login start without a captcha token is refused', async () => {
  await expect(t.redirect('google')).rejects.toThrow(/CAPTCHA_FAILED/)
})

it("a signed-in user's link start needs no captcha token, and links", async () => {
  const login = await authenticate(
    await t.redirect('google', { accountId: 'alice-sub', captchaToken: await altchaToken(t) }),
  )
  expect(login.status).toBe(200)
  const token = login.body.token as string
  const back = await t.redirect('github', { token })
  const linked = await t.request(routes.oauthLink, {
    token,
    body: {
      provider: 'github',
      authorization_code: back.code,
      state_code: back.state,
      code_verifier: back.verifier,
    },
  })
  expect(linked.status).toBe(200)
  expect(linked.body.linked_accounts.map((a: { type: string }) => a.type)).toEqual([
    'google',
    'github',
  ])
})

it("a link start without the user's token is refused (401), captcha or not", async () => {
  const res = await t.request(routes.oauthInit, {
    body: {
      provider: 'github',
      redirect_to: 'http://app.test/login',
      code_challenge: 'A'.repeat(43),
      state_code: `github.${'s'.repeat(43)}`,
      intent: 'link',
    },
  })
  expect(res.status).toBe(401)
})
