import { routes } from '@latchkey/protocol'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { getOAuthTestInstance, type OAuthTestInstance } from './oauth.fixture.ts'

// Security bar 12: a state is bound to the provider, app, intent and (for a
// link) user it was issued for. Used elsewhere it is refused and left
// untouched, so its own flow still completes.
let t: OAuthTestInstance
beforeAll(async () => {
  t = await getOAuthTestInstance()
})
afterAll(() => t.close())

const body = (provider: string, r: { code: string; state: string; verifier: string }) => ({
  provider,
  authorization_code: r.code,
  state_code: r.state,
  code_verifier: r.verifier,
})

it('a Google state presented as GitHub is refused, and still works for Google', async () => {
  const r = await t.redirect('google')
  const wrong = await t.request(routes.oauthAuthenticate, { body: body('github', r) })
  expect(wrong).toMatchObject({ status: 400, body: { code: 'OAUTH_STATE_MISMATCH' } })
  const right = await t.request(routes.oauthAuthenticate, { body: body('google', r) })
  expect(right.status).toBe(200)
})

it('a state of another app is refused', async () => {
  const other = await t.createApp({ login_methods: { google: true } })
  const r = await t.redirect('google')
  const res = await t.request(routes.oauthAuthenticate, {
    body: body('google', r),
    appId: other.id,
  })
  // The other app has no Google client: refused before anything, state untouched.
  expect(res.status).toBeGreaterThanOrEqual(400)
  expect((await t.request(routes.oauthAuthenticate, { body: body('google', r) })).status).toBe(200)
})

it('a login state cannot be used to link, nor a link state to log in', async () => {
  const session = await t.login('bound@example.com')
  const token = session.token ?? ''
  const login = await t.redirect('github')
  const asLink = await t.request(routes.oauthLink, { token, body: body('github', login) })
  expect(asLink).toMatchObject({ status: 400, body: { code: 'OAUTH_STATE_MISMATCH' } })
  const link = await t.redirect('github', { token })
  const asLogin = await t.request(routes.oauthAuthenticate, { body: body('github', link) })
  expect(asLogin).toMatchObject({ status: 400, body: { code: 'OAUTH_STATE_MISMATCH' } })
})

it("a link state of one user is refused for another user's session", async () => {
  const a = await t.login('user-a@example.com')
  const b = await t.login('user-b@example.com')
  const r = await t.redirect('google', { token: a.token ?? '', accountId: 'carol-sub' })
  const res = await t.request(routes.oauthLink, { token: b.token ?? '', body: body('google', r) })
  expect(res).toMatchObject({ status: 400, body: { code: 'OAUTH_STATE_MISMATCH' } })
  const own = await t.request(routes.oauthLink, { token: a.token ?? '', body: body('google', r) })
  expect(own.status).toBe(200)
})
