import { routes } from '@latchkey/protocol'
import { decodeJwt } from 'jose'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { getTestInstance, type TestInstance } from '../test/instance.ts'

// A sign-up answers with the user made from the rows it has just written,
// not read back (sessions/service.ts startSessionForNewUser): that user, and
// the identity token's accounts, must be exactly what the database holds.
let t: TestInstance
beforeAll(async () => {
  t = await getTestInstance()
})
afterAll(() => t.close())

it('the sign-up answer is the stored user, and its session works', async () => {
  const signUp = await t.login('new-user@example.com')
  expect(signUp.is_new_user).toBe(true)
  const me = await t.request(routes.usersMe, { token: signUp.token ?? '' })
  expect(me.status).toBe(200)
  expect(signUp.user).toEqual(me.body.user)
  const claims = decodeJwt(signUp.identity_token ?? '')
  expect(JSON.parse(String(claims.linked_accounts))).toEqual(me.body.user.linked_accounts)
  const refreshed = await t.request(routes.sessionRefresh, {
    body: { refresh_token: signUp.refresh_token },
  })
  expect(refreshed.status).toBe(200)
  expect(refreshed.body.user).toEqual(signUp.user)
})

it('a sign-up refused by the allowlist writes no user, account or session', async () => {
  const app = await t.createApp({
    allowlist: { enabled: true, entries: [{ type: 'email', value: 'only@example.com' }] },
  })
  const before = await Promise.all([
    t.countRows('users'),
    t.countRows('linked_accounts'),
    t.countRows('sessions'),
  ])
  await expect(t.login('refused@example.com', { appId: app.id })).rejects.toThrow(
    /ALLOWLIST_REJECTED/,
  )
  expect(
    await Promise.all([
      t.countRows('users'),
      t.countRows('linked_accounts'),
      t.countRows('sessions'),
    ]),
  ).toEqual(before)
})
