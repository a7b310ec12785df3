import { CODE_MAX_ATTEMPTS, routes } from '@latchkey/protocol'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { getTestInstance, type TestInstance } from '../../test/instance.ts'

// Security bar 2–4 for phone codes: single use, attempt-limited, bound to the number.
let t: TestInstance
beforeAll(async () => {
  t = await getTestInstance({ appSettings: { login_methods: { sms: true } } })
})
afterAll(() => t.close())

async function sendAndRead(phone: string): Promise<string> {
  expect((await t.request(routes.smsInit, { body: { phoneNumber: phone } })).status).toBe(200)
  const res = await t.request(`${routes.devOutbox}?to=${encodeURIComponent(phone)}`, {
    appId: null,
  })
  return res.body.messages[0].code
}

it('a correct phone code works once', async () => {
  const code = await sendAndRead('+14155550120')
  const first = await t.request(routes.smsAuthenticate, {
    body: { phoneNumber: '+14155550120', code },
  })
  expect(first.status).toBe(200)
  const replay = await t.request(routes.smsAuthenticate, {
    body: { phoneNumber: '+14155550120', code },
  })
  expect(replay).toMatchObject({
    status: 422,
    body: { code: 'INVALID_CODE', message: 'Invalid or expired verification code' },
  })
})

it('a concurrent double-submit of a phone code yields exactly one session', async () => {
  const code = await sendAndRead('+14155550121')
  const results = await Promise.all(
    Array.from({ length: 4 }, () =>
      t.request(routes.smsAuthenticate, { body: { phoneNumber: '+14155550121', code } }),
    ),
  )
  expect(results.filter((r) => r.status === 200)).toHaveLength(1)
  const accounts = await t.db
    .selectFrom('linked_accounts')
    .select('id')
    .where('identifier', '=', '+14155550121')
    .execute()
  expect(accounts).toHaveLength(1)
})

it(`a phone code is dead after ${CODE_MAX_ATTEMPTS} wrong attempts, even the right one`, async () => {
  const code = await sendAndRead('+14155550122')
  const wrong = code === '000000' ? '111111' : '000000'
  for (let i = 0; i < CODE_MAX_ATTEMPTS; i++) {
    const res = await t.request(routes.smsAuthenticate, {
      body: { phoneNumber: '+14155550122', code: wrong },
    })
    expect(res.body.code).toBe('INVALID_CODE')
  }
  const right = await t.request(routes.smsAuthenticate, {
    body: { phoneNumber: '+14155550122', code },
  })
  expect(right).toMatchObject({
    status: 429,
    body: { code: 'TOO_MANY_ATTEMPTS', message: 'Too many attempts.' },
  })
})

it("a code sent to one number does not log in another, nor work as another app's code", async () => {
  const code = await sendAndRead('+14155550123')
  const other = await t.request(routes.smsAuthenticate, {
    body: { phoneNumber: '+14155550124', code },
  })
  expect(other.body.code).toBe('INVALID_CODE')
  const app = await t.createApp({ login_methods: { sms: true } })
  const elsewhere = await t.request(routes.smsAuthenticate, {
    body: { phoneNumber: '+14155550123', code },
    appId: app.id,
  })
  expect(elsewhere.body.code).toBe('INVALID_CODE')
  const ok = await t.request(routes.smsAuthenticate, {
    body: { phoneNumber: '+14155550123', code },
  })
  expect(ok.status).toBe(200)
})
