import { routes } from '@latchkey/protocol'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { sha256 } from '../ids.ts'
import { getTestInstance, type TestInstance } from '../test/instance.ts'
import { emailLink, emailLogin, smsLogin } from './testing.ts'
import { ACCOUNT_TRANSFER_TTL_MS } from './transfer.ts'

/*
 * A transfer nonce (docs/access-control.md "Account transfer") is 256
 * random bits, stored hashed, usable once, for 10 minutes, by the user it
 * was issued to, for the account it was issued for. Every refusal is
 * TRANSFER_EXPIRED and leaves both users as they were.
 */

let t: TestInstance
beforeAll(async () => {
  t = await getTestInstance({
    appSettings: { login_methods: { email: true, sms: true } },
    rateLimits: { codeSendsPerIp: { limit: 10_000, windowMs: 60 * 60_000 } },
  })
})
afterAll(() => t.close())

let phoneSuffix = 300
const nextPhone = () => `+1415555${String(phoneSuffix++).padStart(4, '0')}`

/** V signs up by email; U (an SMS user) links that email: U, V and the nonce. */
async function offer(email: string) {
  const v = (await emailLogin(t, email)).body
  const u = (await smsLogin(t, nextPhone())).body
  const link = await emailLink(t, u.token, email)
  expect(link.body.code).toBe('ACCOUNT_TRANSFER_REQUIRED')
  return { v, u, nonce: link.body.details.nonce as string }
}

const transfer = (token: string, nonce: string, email: string) =>
  t.request(routes.emailTransfer, { token, body: { nonce, email } })

const userExists = async (id: string) =>
  (await t.db.selectFrom('users').select('id').where('id', '=', id).executeTakeFirst()) !==
  undefined

const expired = { status: 400, body: { code: 'TRANSFER_EXPIRED' } }

describe('transfer nonce', () => {
  it('is 256 random bits, stored only as its hash, bound to app, users and account', async () => {
    const { u, v, nonce } = await offer('stored@example.com')
    expect(nonce).toMatch(/^[A-Za-z0-9_-]{43}$/)
    const rows = await t.db.selectFrom('account_transfers').selectAll().execute()
    const row = rows.find((r) => r.nonce_hash === sha256(nonce))
    expect(row).toMatchObject({
      app_id: t.app.id,
      user_id: u.user.id,
      from_user_id: v.user.id,
      account_type: 'email',
      identifier: 'stored@example.com',
      used_at: null,
    })
    expect(Number(row?.expires_at) - Number(row?.created_at)).toBe(ACCOUNT_TRANSFER_TTL_MS)
    expect(JSON.stringify(rows)).not.toContain(nonce)
  })

  it('works once; a second use is TRANSFER_EXPIRED', async () => {
    const { u, nonce } = await offer('once@example.com')
    expect((await transfer(u.token, nonce, 'once@example.com')).status).toBe(200)
    expect(await transfer(u.token, nonce, 'once@example.com')).toMatchObject(expired)
  })

  it('two concurrent uses: exactly one succeeds', async () => {
    const { u, nonce } = await offer('race@example.com')
    const results = await Promise.all([
      transfer(u.token, nonce, 'race@example.com'),
      transfer(u.token, nonce, 'race@example.com'),
    ])
    expect(results.map((r) => r.status).sort()).toEqual([200, 400])
    expect(results.find((r) => r.status === 400)?.body.code).toBe('TRANSFER_EXPIRED')
  })

  it('expires after 10 minutes (test clock)', async () => {
    const { u, v, nonce } = await offer('late@example.com')
    t.clock.advance(ACCOUNT_TRANSFER_TTL_MS)
    expect(await transfer(u.token, nonce, 'late@example.com')).toMatchObject(expired)
    expect(await userExists(v.user.id)).toBe(true)
  })

  it('is still good just before it expires', async () => {
    const { u, nonce } = await offer('just-in-time@example.com')
    // The link helper already moved the clock past the code resend cooldown.
    t.clock.advance(ACCOUNT_TRANSFER_TTL_MS - 31_000 - 1_000)
    expect((await transfer(u.token, nonce, 'just-in-time@example.com')).status).toBe(200)
  })

  it('another signed-in user cannot use it, and it stays good for its owner', async () => {
    const { u, v, nonce } = await offer('wrong-user@example.com')
    const intruder = (await smsLogin(t, nextPhone())).body
    expect(await transfer(intruder.token, nonce, 'wrong-user@example.com')).toMatchObject(expired)
    expect(await userExists(v.user.id)).toBe(true)
    const me = await t.request(routes.usersMe, { token: intruder.token })
    expect(me.body.user.linked_accounts.map((a: { type: string }) => a.type)).toEqual(['phone'])
    expect((await transfer(u.token, nonce, 'wrong-user@example.com')).status).toBe(200)
  })

  it('names one account: another identifier or method is refused without spending it', async () => {
    const { u, v, nonce } = await offer('right@example.com')
    await emailLogin(t, 'other-victim@example.com')
    expect(await transfer(u.token, nonce, 'other-victim@example.com')).toMatchObject(expired)
    const viaSms = await t.request(routes.smsTransfer, {
      token: u.token,
      body: { nonce, phoneNumber: '+14155550999' },
    })
    expect(viaSms).toMatchObject(expired)
    expect(await userExists(v.user.id)).toBe(true)
    expect((await transfer(u.token, nonce, 'right@example.com')).status).toBe(200)
  })

  it('is bound to its app', async () => {
    const { u, nonce } = await offer('app-bound@example.com')
    const other = await t.createApp({ login_methods: { email: true } })
    const res = await t.request(routes.emailTransfer, {
      token: u.token,
      appId: other.id,
      body: { nonce, email: 'app-bound@example.com' },
    })
    // U's token is for the first app: refused before the nonce is looked at.
    expect(res.status).toBe(401)
    expect((await transfer(u.token, nonce, 'app-bound@example.com')).status).toBe(200)
  })
})
