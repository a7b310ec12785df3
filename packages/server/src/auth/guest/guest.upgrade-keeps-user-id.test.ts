import { randomBytes } from 'node:crypto'
import { routes } from '@latchkey/protocol'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { getTestInstance, type TestInstance } from '../../test/instance.ts'

// Security bar 37: upgrading a guest (linking a real method) keeps the same
// user id and clears is_guest. Spec 01 §6: the guest flow cannot link.
let t: TestInstance
beforeAll(async () => {
  t = await getTestInstance({ appSettings: { login_methods: { email: true, guest: true } } })
})
afterAll(() => t.close())

const credential = () => randomBytes(32).toString('base64url')

describe('guest upgrade', () => {
  it('linking an email keeps the user id and clears is_guest', async () => {
    const c = credential()
    const guest = await t.request(routes.guestAuthenticate, { body: { guest_credential: c } })
    const token = guest.body.token
    await t.request(routes.emailInit, { body: { email: 'upgraded@example.com' } })
    const linked = await t.request(routes.emailLink, {
      token,
      body: { email: 'upgraded@example.com', code: await t.lastCode('upgraded@example.com') },
    })
    expect(linked.status).toBe(200)
    expect(linked.body).toMatchObject({ id: guest.body.user.id, is_guest: false })
    // The guest account is gone: the credential left on the device opens nothing.
    expect(linked.body.linked_accounts.map((a: { type: string }) => a.type)).toEqual(['email'])
    const me = await t.request(routes.usersMe, { token })
    expect(me.body.user).toMatchObject({ id: guest.body.user.id, is_guest: false })

    // Logging in by email reaches the same user.
    t.clock.advance(31_000)
    const byEmail = await t.login('upgraded@example.com')
    expect(byEmail.user.id).toBe(guest.body.user.id)

    // The old credential now makes a new, separate guest.
    const reused = await t.request(routes.guestAuthenticate, { body: { guest_credential: c } })
    expect(reused.body.user.id).not.toBe(guest.body.user.id)
    expect(reused.body.user.is_guest).toBe(true)
  })

  it('the guest flow cannot link: no link route, and a session on the request is ignored', async () => {
    const user = await t.login('not-a-guest@example.com')
    const token = user.token ?? ''
    const link = await t.request('/api/v1/guest/link', {
      token,
      body: { guest_credential: credential() },
    })
    expect(link.status).toBe(404)
    const res = await t.request(routes.guestAuthenticate, {
      token,
      body: { guest_credential: credential() },
    })
    expect(res.body.user.id).not.toBe(user.user.id)
    const me = await t.request(routes.usersMe, { token })
    expect(me.body.user.linked_accounts.map((a: { type: string }) => a.type)).toEqual(['email'])
    expect(me.body.user.is_guest).toBe(false)
  })

  it('a guest may log in with another method (a separate user) and stays a guest', async () => {
    const guest = await t.request(routes.guestAuthenticate, {
      body: { guest_credential: credential() },
    })
    const other = await t.login('someone-else@example.com')
    expect(other.user.id).not.toBe(guest.body.user.id)
    const me = await t.request(routes.usersMe, { token: guest.body.token })
    expect(me.body.user.is_guest).toBe(true)
  })
})
