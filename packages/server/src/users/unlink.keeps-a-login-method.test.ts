import { routes } from '@latchkey/protocol'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { getTestInstance, type TestInstance } from '../test/instance.ts'

// A user keeps one login method (spec 01 §5: embedded wallets are no login
// method). Tracker issue 16, 4a: the email and phone unlinks counted the
// user's embedded wallets as login methods, so a user with a wallet could
// unlink the address they log in with and be locked out; and the refusal
// read 'Something went wrong' / 'Try again later' instead of what to do.
const PHONE = '+14155550177'

let t: TestInstance
beforeAll(async () => {
  t = await getTestInstance({ appSettings: { login_methods: { email: true, sms: true } } })
})
afterAll(() => t.close())

/** An embedded wallet row for `userId`, as wallet creation leaves it; or a smart wallet's, as its link does. */
async function giveEmbeddedWallet(userId: string, address: string, type = 'wallet') {
  const now = Date.now()
  const data =
    type === 'wallet'
      ? { address, chain_type: 'ethereum', connector_type: 'embedded' }
      : { address, smart_wallet_type: 'safe', smart_wallet_version: '1.4.1' }
  await t.db
    .insertInto('linked_accounts')
    .values({
      id: `${type}-${address}`,
      user_id: userId,
      app_id: t.app.id,
      type,
      identifier: address,
      data: JSON.stringify(data),
      created_at: now,
      first_verified_at: now,
      latest_verified_at: now,
    })
    .execute()
}

async function loginByPhone(phone: string) {
  expect((await t.request(routes.smsInit, { body: { phoneNumber: phone } })).status).toBe(200)
  const outbox = await t.request(`${routes.devOutbox}?to=${encodeURIComponent(phone)}`, {
    appId: null,
  })
  const code = outbox.body.messages[0].code
  const res = await t.request(routes.smsAuthenticate, { body: { phoneNumber: phone, code } })
  expect(res.status).toBe(200)
  return res.body as { token: string; user: { id: string } }
}

const refused = {
  status: 400,
  body: {
    code: 'CANNOT_UNLINK_LAST_ACCOUNT',
    message: "You can't remove your only login method",
  },
}

describe('the last login method, beside embedded wallets', () => {
  it('an email cannot be unlinked', async () => {
    const session = await t.login('wallet-owner@example.com')
    await giveEmbeddedWallet(session.user.id, '0x00000000000000000000000000000000000000e1')
    const res = await t.request(routes.emailUnlink, {
      token: session.token ?? '',
      body: { address: 'wallet-owner@example.com' },
    })
    expect(res).toMatchObject(refused)
    const email = await t.db
      .selectFrom('linked_accounts')
      .select('id')
      .where('user_id', '=', session.user.id)
      .where('type', '=', 'email')
      .execute()
    expect(email).toHaveLength(1)
  })

  it('a phone number cannot be unlinked', async () => {
    const session = await loginByPhone(PHONE)
    await giveEmbeddedWallet(session.user.id, '0x00000000000000000000000000000000000000e2')
    const res = await t.request(routes.smsUnlink, {
      token: session.token,
      body: { phoneNumber: PHONE },
    })
    expect(res).toMatchObject(refused)
  })
  it('a smart wallet is no login method either: the email stays', async () => {
    const session = await t.login('smart-wallet-owner@example.com')
    await giveEmbeddedWallet(session.user.id, '0x00000000000000000000000000000000000000e3')
    await giveEmbeddedWallet(
      session.user.id,
      '0x00000000000000000000000000000000000000e4',
      'smart_wallet',
    )
    const res = await t.request(routes.emailUnlink, {
      token: session.token ?? '',
      body: { address: 'smart-wallet-owner@example.com' },
    })
    expect(res).toMatchObject(refused)
  })
})
