import { routes } from '@latchkey/protocol'
import { decodeJwt, decodeProtectedHeader } from 'jose'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { EmailSender } from '../../adapters/email/types.ts'
import { getTestInstance, type TestInstance } from '../../test/instance.ts'
import { insertAccount } from '../../users/service.ts'

let t: TestInstance
beforeAll(async () => {
  t = await getTestInstance()
})
afterAll(() => t.close())

describe('email login', () => {
  it('signs up a new user, then logs the same user in', async () => {
    const init = await t.request(routes.emailInit, { body: { email: 'Alice@Example.com' } })
    expect(init).toMatchObject({ status: 200, body: { success: true } })
    const code = await t.lastCode('alice@example.com')
    expect(code).toMatch(/^\d{6}$/)

    const auth = await t.request(routes.emailAuthenticate, {
      body: { email: 'alice@example.com', code },
    })
    expect(auth.status).toBe(200)
    expect(auth.body).toMatchObject({ is_new_user: true, session_update_action: 'set' })
    expect(auth.body.user.id).toMatch(/^did:latchkey:[a-z0-9]{25}$/)
    expect(auth.body.user.linked_accounts).toEqual([
      expect.objectContaining({ type: 'email', address: 'alice@example.com' }),
    ])
    expect(auth.body.refresh_token).toMatch(/^[A-Za-z0-9_-]{43}$/)
    expect(decodeProtectedHeader(auth.body.token)).toMatchObject({ alg: 'ES256', typ: 'at+jwt' })
    const claims = decodeJwt(auth.body.token)
    expect(claims).toMatchObject({
      sub: auth.body.user.id,
      aud: t.app.id,
      iss: 'http://latchkey.test',
    })
    expect(typeof claims.sid).toBe('string')
    expect((claims.exp ?? 0) - (claims.iat ?? 0)).toBe(3600)
    const identity = decodeJwt(auth.body.identity_token)
    expect(decodeProtectedHeader(auth.body.identity_token).typ).toBe('id+jwt')
    expect(JSON.parse(identity.linked_accounts as string)[0].address).toBe('alice@example.com')

    t.clock.advance(31_000)
    await t.request(routes.emailInit, { body: { email: 'alice@example.com' } })
    const again = await t.request(routes.emailAuthenticate, {
      body: { email: 'ALICE@example.com', code: await t.lastCode('alice@example.com') },
    })
    expect(again.body).toMatchObject({ is_new_user: false, user: { id: auth.body.user.id } })
  })

  it('GET users/me returns the user and an identity token', async () => {
    const login = await t.login('me@example.com')
    const me = await t.request(routes.usersMe, { token: login.token ?? '' })
    expect(me.status).toBe(200)
    expect(me.body.user.id).toBe(login.user.id)
    expect(decodeJwt(me.body.identity_token).sub).toBe(login.user.id)
    expect((await t.request(routes.usersMe)).body.code).toBe('UNAUTHORIZED')
  })

  it('the email reads "Your {app} login code is …"', async () => {
    await t.request(routes.emailInit, { body: { email: 'subject@example.com' } })
    const { body } = await t.request(`${routes.devMailbox}?to=subject@example.com`, { appId: null })
    expect(body.messages[0].subject).toBe(`Your Test App login code is ${body.messages[0].code}`)
    expect(body.messages[0].text).toContain(body.messages[0].code)
  })

  it('no-signup refuses an unknown address and consumes the code', async () => {
    await t.request(routes.emailInit, {
      body: { email: 'nobody@example.com', disableSignup: true },
    })
    const code = await t.lastCode('nobody@example.com')
    const users = await t.countRows('users')
    const res = await t.request(routes.emailAuthenticate, {
      body: { email: 'nobody@example.com', code, mode: 'no-signup' },
    })
    expect(res).toMatchObject({ status: 404, body: { code: 'USER_DOES_NOT_EXIST' } })
    expect(await t.countRows('users')).toBe(users)
    const replay = await t.request(routes.emailAuthenticate, {
      body: { email: 'nobody@example.com', code },
    })
    expect(replay).toMatchObject({ status: 422, body: { code: 'INVALID_CODE' } })
  })

  it('no-signup logs in an existing user', async () => {
    const first = await t.login('existing@example.com')
    await t.request(routes.emailInit, {
      body: { email: 'existing@example.com', disableSignup: true },
    })
    const res = await t.request(routes.emailAuthenticate, {
      body: {
        email: 'existing@example.com',
        code: await t.lastCode('existing@example.com'),
        mode: 'no-signup',
      },
    })
    expect(res.body).toMatchObject({ is_new_user: false, user: { id: first.user.id } })
  })
})

describe('app settings', () => {
  it('refuses plus-addresses when disable_plus_emails is on', async () => {
    const app = await t.createApp({ disable_plus_emails: true })
    const res = await t.request(routes.emailInit, {
      body: { email: 'a+tag@example.com' },
      appId: app.id,
    })
    expect(res).toMatchObject({ status: 400, body: { code: 'PLUS_EMAIL_NOT_ALLOWED' } })
    const ok = await t.request(routes.emailInit, {
      body: { email: 'a@example.com' },
      appId: app.id,
    })
    expect(ok.status).toBe(200)
  })

  it('refuses email login when the app switched it off', async () => {
    const app = await t.createApp({ login_methods: { email: false } })
    const res = await t.request(routes.emailInit, {
      body: { email: 'a@example.com' },
      appId: app.id,
    })
    expect(res).toMatchObject({ status: 403, body: { code: 'LOGIN_METHOD_NOT_ALLOWED' } })
    const auth = await t.request(routes.emailAuthenticate, {
      body: { email: 'a@example.com', code: '123456' },
      appId: app.id,
    })
    expect(auth.body.code).toBe('LOGIN_METHOD_NOT_ALLOWED')
  })

  it('a user of one app is not a user of another', async () => {
    const other = await t.createApp()
    const a = await t.login('shared@example.com')
    const b = await t.login('shared@example.com', { appId: other.id })
    expect(b.is_new_user).toBe(true)
    expect(b.user.id).not.toBe(a.user.id)
  })
})

describe('link, unlink, update', () => {
  it('links an email to a user without one; refuses a second email (one per type)', async () => {
    const user = await t.login('linker@example.com')
    await t.request(routes.emailInit, { body: { email: 'second@example.com' } })
    const res = await t.request(routes.emailLink, {
      token: user.token ?? '',
      body: { email: 'second@example.com', code: await t.lastCode('second@example.com') },
    })
    // Spec 01 §8: the modal shows this message, so it is written for the user.
    expect(res).toMatchObject({
      status: 400,
      body: {
        code: 'CANNOT_LINK_MORE_OF_TYPE',
        message: 'Only one email address can be linked to an account.',
      },
    })
  })

  it("offers a transfer of another user's only login method, else refuses (ACCOUNT_ALREADY_LINKED)", async () => {
    const owner = await t.login('owner@example.com')
    const thief = await t.login('thief@example.com')
    // Leave the thief without an email so only the ownership rule can refuse.
    await t.db.deleteFrom('linked_accounts').where('identifier', '=', 'thief@example.com').execute()
    const link = async () => {
      await t.request(routes.emailInit, { body: { email: 'owner@example.com' } })
      const res = await t.request(routes.emailLink, {
        token: thief.token ?? '',
        body: { email: 'owner@example.com', code: await t.lastCode('owner@example.com') },
      })
      t.clock.advance(31_000)
      return res
    }
    // The email is the owner's only login method: a transfer is offered
    // (docs/access-control.md; users/transfer.test.ts covers the transfer).
    expect(await link()).toMatchObject({
      status: 400,
      body: { code: 'ACCOUNT_TRANSFER_REQUIRED', details: { nonce: expect.any(String) } },
    })
    // With a second login method the owner keeps the email: plain refusal.
    await insertAccount(
      t.db,
      t.app.id,
      owner.user.id,
      { type: 'phone', identifier: '+14155550199', data: { number: '+14155550199' } },
      t.clock.now(),
    )
    const res = await link()
    expect(res).toMatchObject({
      status: 400,
      body: {
        code: 'ACCOUNT_ALREADY_LINKED',
        message: 'This account has already been linked to another user.',
      },
    })
  })

  it('links an email with a valid code', async () => {
    const user = await t.login('relink@example.com')
    await t.db
      .deleteFrom('linked_accounts')
      .where('identifier', '=', 'relink@example.com')
      .execute()
    await t.request(routes.emailInit, { body: { email: 'fresh@example.com' } })
    const res = await t.request(routes.emailLink, {
      token: user.token ?? '',
      body: { email: 'fresh@example.com', code: await t.lastCode('fresh@example.com') },
    })
    expect(res.status).toBe(200)
    expect(res.body.linked_accounts).toEqual([
      expect.objectContaining({ address: 'fresh@example.com' }),
    ])
    const wrong = await t.request(routes.emailLink, {
      token: user.token ?? '',
      body: { email: 'x@example.com', code: '000000' },
    })
    expect(wrong.body.code).toBe('INVALID_CODE')
  })

  it('refuses to unlink the last account, and an address that is not linked', async () => {
    const user = await t.login('last@example.com')
    const last = await t.request(routes.emailUnlink, {
      token: user.token ?? '',
      body: { address: 'last@example.com' },
    })
    expect(last).toMatchObject({ status: 400, body: { code: 'CANNOT_UNLINK_LAST_ACCOUNT' } })
    const other = await t.request(routes.emailUnlink, {
      token: user.token ?? '',
      body: { address: 'other@example.com' },
    })
    expect(other).toMatchObject({ status: 404, body: { code: 'ACCOUNT_NOT_LINKED' } })
  })

  it('unlinks an email when another account remains', async () => {
    const user = await t.login('two@example.com')
    // A second (future-method) account keeps the user reachable.
    await t.db
      .insertInto('linked_accounts')
      .values({
        id: 'extra-1',
        user_id: user.user.id,
        app_id: t.app.id,
        type: 'email-alias',
        identifier: 'x',
        data: '{}',
        created_at: 1,
        first_verified_at: 1,
        latest_verified_at: 1,
      })
      .execute()
    const res = await t.request(routes.emailUnlink, {
      token: user.token ?? '',
      body: { address: 'two@example.com' },
    })
    expect(res.status).toBe(200)
    expect(
      await t.db
        .selectFrom('linked_accounts')
        .where('identifier', '=', 'two@example.com')
        .select('id')
        .execute(),
    ).toHaveLength(0)
  })

  it('updates the address with a code sent to the new one', async () => {
    const user = await t.login('old@example.com')
    await t.request(routes.emailInit, { body: { email: 'new@example.com' } })
    const res = await t.request(routes.emailUpdate, {
      token: user.token ?? '',
      body: {
        oldAddress: 'old@example.com',
        newAddress: 'new@example.com',
        code: await t.lastCode('new@example.com'),
      },
    })
    expect(res.status).toBe(200)
    expect(res.body.linked_accounts).toEqual([
      expect.objectContaining({ address: 'new@example.com' }),
    ])
    // The old address no longer logs in to that user.
    const fresh = await t.login('old@example.com')
    expect(fresh.is_new_user).toBe(true)
  })

  it('refuses an update to an address someone else has', async () => {
    await t.login('taken@example.com')
    const user = await t.login('mover@example.com')
    await t.request(routes.emailInit, { body: { email: 'taken@example.com' } })
    const res = await t.request(routes.emailUpdate, {
      token: user.token ?? '',
      body: {
        oldAddress: 'mover@example.com',
        newAddress: 'taken@example.com',
        code: await t.lastCode('taken@example.com'),
      },
    })
    expect(res).toMatchObject({ status: 400, body: { code: 'ACCOUNT_ALREADY_LINKED' } })
  })

  it('refuses an update from an address the user does not have', async () => {
    const user = await t.login('holder@example.com')
    const res = await t.request(routes.emailUpdate, {
      token: user.token ?? '',
      body: { oldAddress: 'not-mine@example.com', newAddress: 'n2@example.com', code: '123456' },
    })
    expect(res).toMatchObject({ status: 404, body: { code: 'ACCOUNT_NOT_LINKED' } })
  })

  it('refuses an update by a user without an email address (spec 02 §5)', async () => {
    const user = await t.login('soon-without@example.com')
    await t.db
      .deleteFrom('linked_accounts')
      .where('identifier', '=', 'soon-without@example.com')
      .execute()
    await t.request(routes.emailInit, { body: { email: 'fresh@example.com' } })
    const res = await t.request(routes.emailUpdate, {
      token: user.token ?? '',
      body: {
        oldAddress: 'soon-without@example.com',
        newAddress: 'fresh@example.com',
        code: await t.lastCode('fresh@example.com'),
      },
    })
    expect(res).toMatchObject({
      status: 400,
      body: {
        code: 'NO_EMAIL_TO_UPDATE',
        message: 'User is required to have an email address to update it.',
      },
    })
  })
})

describe('delivery failure', () => {
  it('answers 424 EMAIL_DELIVERY_FAILED without leaking the cause', async () => {
    const failing: EmailSender = {
      kind: 'smtp',
      send: async () => {
        throw new Error('connect ECONNREFUSED 10.0.0.1:25 secret-detail')
      },
    }
    const f = await getTestInstance({ emailSender: failing })
    try {
      const res = await f.request(routes.emailInit, { body: { email: 'a@example.com' } })
      expect(res).toMatchObject({ status: 424, body: { code: 'EMAIL_DELIVERY_FAILED' } })
      expect(JSON.stringify(res.body)).not.toContain('secret-detail')
    } finally {
      await f.close()
    }
  })
})
