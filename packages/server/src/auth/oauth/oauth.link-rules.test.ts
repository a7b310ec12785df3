import { routes } from '@latchkey/protocol'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { getOAuthTestInstance, type OAuthTestInstance } from './oauth.fixture.ts'

// Linking rules (security bar 14, spec 01 §8): one account per provider per
// user; an account already on another user is refused; a user keeps one
// login method; users are keyed by (provider, subject), never merged by email.
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

it('a second account of the same provider is refused with the spec message', async () => {
  const s = await t.login('two-googles@example.com')
  const token = s.token ?? ''
  const first = await t.redirect('google', { token, accountId: 'alice-sub' })
  expect((await t.request(routes.oauthLink, { token, body: body('google', first) })).status).toBe(
    200,
  )
  const second = await t.redirect('google', { token, accountId: 'carol-sub' })
  const res = await t.request(routes.oauthLink, { token, body: body('google', second) })
  expect(res).toMatchObject({
    status: 400,
    body: {
      code: 'CANNOT_LINK_MORE_OF_TYPE',
      message: 'You cannot authorize more than one account for this user.',
    },
  })
})

it('an account linked to another user is refused (ACCOUNT_ALREADY_LINKED)', async () => {
  const s = await t.login('late@example.com')
  const token = s.token ?? ''
  const r = await t.redirect('google', { token, accountId: 'alice-sub' })
  const res = await t.request(routes.oauthLink, { token, body: body('google', r) })
  expect(res).toMatchObject({
    status: 400,
    body: {
      code: 'ACCOUNT_ALREADY_LINKED',
      message: 'This account has already been linked to another user.',
    },
  })
})

it('link needs a session', async () => {
  const r = await t.redirect('github')
  const res = await t.request(routes.oauthLink, { body: body('github', r) })
  expect(res).toMatchObject({ status: 401 })
})

it('the last login method cannot be unlinked; an unknown subject is ACCOUNT_NOT_LINKED', async () => {
  const r = await t.redirect('github')
  const login = await t.request(routes.oauthAuthenticate, { body: body('github', r) })
  const token = login.body.token
  const last = await t.request(routes.oauthUnlink, {
    token,
    body: { provider: 'github', subject: '4242' },
  })
  expect(last).toMatchObject({ status: 400, body: { code: 'CANNOT_UNLINK_LAST_ACCOUNT' } })
  const unknown = await t.request(routes.oauthUnlink, {
    token,
    body: { provider: 'github', subject: '9999' },
  })
  expect(unknown).toMatchObject({ status: 404, body: { code: 'ACCOUNT_NOT_LINKED' } })
})

it('a provider email equal to an existing email user is not merged into it', async () => {
  const emailUser = await t.login('bob@example.com')
  const r = await t.redirect('google', { accountId: 'bob-sub' })
  const res = await t.request(routes.oauthAuthenticate, { body: body('google', r) })
  expect(res.status).toBe(200)
  expect(res.body.is_new_user).toBe(true)
  expect(res.body.user.id).not.toBe(emailUser.user.id)
  // Bob's address is unverified at the provider: it is not kept.
  expect(res.body.user.linked_accounts[0]).toMatchObject({ subject: 'bob-sub', email: null })
})
