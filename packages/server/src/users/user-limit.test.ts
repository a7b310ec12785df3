import { routes } from '@latchkey/protocol'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createApp } from '../apps/service.ts'
import { getTestInstance, type TestInstance } from '../test/instance.ts'
import { emailLogin } from './testing.ts'

/*
 * User limit (docs/access-control.md "User limit"): beyond `max_users`
 * users, sign-ups get USER_LIMIT_REACHED ('Unable to sign in'); existing
 * users still log in. The count and the insert share one transaction.
 */

let t: TestInstance
beforeAll(async () => {
  t = await getTestInstance({
    appSettings: { login_methods: { email: true, guest: true }, max_users: 2 },
  })
})
afterAll(() => t.close())

const usersOf = async (appId: string) =>
  Number(
    (
      await t.db
        .selectFrom('users')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('app_id', '=', appId)
        .executeTakeFirstOrThrow()
    ).n,
  )

describe('max_users', () => {
  it('signs up users up to the limit, then refuses new ones with nothing written', async () => {
    expect((await emailLogin(t, 'one@example.com')).status).toBe(200)
    expect((await emailLogin(t, 'two@example.com')).status).toBe(200)
    const accounts = await t.countRows('linked_accounts')
    const third = await emailLogin(t, 'three@example.com')
    expect(third).toMatchObject({
      status: 403,
      body: { code: 'USER_LIMIT_REACHED', message: 'Unable to sign in' },
    })
    expect(await usersOf(t.app.id)).toBe(2)
    expect(await t.countRows('linked_accounts')).toBe(accounts)
  })

  it('existing users still log in at the limit', async () => {
    const again = await emailLogin(t, 'one@example.com')
    expect(again).toMatchObject({ status: 200, body: { is_new_user: false } })
  })

  it('guests count as users and are refused too', async () => {
    const res = await t.request(routes.guestAuthenticate, {
      body: { guest_credential: 'h'.repeat(43) },
    })
    expect(res).toMatchObject({ status: 403, body: { code: 'USER_LIMIT_REACHED' } })
  })

  it('counts per app: another app is not affected', async () => {
    const other = await t.createApp({ max_users: 1 })
    expect((await emailLogin(t, 'three@example.com', { appId: other.id })).status).toBe(200)
    const refused = await emailLogin(t, 'four@example.com', { appId: other.id })
    expect(refused.body.code).toBe('USER_LIMIT_REACHED')
  })

  it('concurrent sign-ups never exceed the limit', async () => {
    const app = await t.createApp({ max_users: 3 })
    const emails = Array.from({ length: 8 }, (_, i) => `race${i}@example.com`)
    // Codes first, then all the authenticates at once.
    const codes: string[] = []
    for (const email of emails) {
      await t.request(routes.emailInit, { body: { email }, appId: app.id })
      codes.push(await t.lastCode(email))
    }
    const results = await Promise.all(
      emails.map((email, i) =>
        t.request(routes.emailAuthenticate, { body: { email, code: codes[i] }, appId: app.id }),
      ),
    )
    expect(results.filter((r) => r.status === 200)).toHaveLength(3)
    expect(results.filter((r) => r.body?.code === 'USER_LIMIT_REACHED')).toHaveLength(5)
    expect(await usersOf(app.id)).toBe(3)
  })

  it('is off by default, and 0 admits no sign-up', async () => {
    const open = await t.createApp({})
    for (let i = 0; i < 3; i++)
      expect((await emailLogin(t, `open${i}@example.com`, { appId: open.id })).status).toBe(200)
    const closed = await t.createApp({ max_users: 0 })
    expect((await emailLogin(t, 'nobody@example.com', { appId: closed.id })).body.code).toBe(
      'USER_LIMIT_REACHED',
    )
  })

  it.each([[-1], [1.5], ['10']])('refuses max_users %j in app settings', async (value) => {
    await expect(
      createApp(t.db, {
        name: 'Bad',
        origins: ['http://bad.test'],
        settings: { max_users: value as number },
      }),
    ).rejects.toThrow(/Invalid max_users/)
  })
})
