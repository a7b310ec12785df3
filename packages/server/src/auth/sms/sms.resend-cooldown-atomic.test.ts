import { routes } from '@latchkey/protocol'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { getTestInstance, type TestInstance } from '../../test/instance.ts'

// Tracker issue 15, 7c, for phone codes: 20 parallel sends to one number
// yield one code, on Postgres (DATABASE_URL) as on SQLite.
let t: TestInstance
beforeAll(async () => {
  t = await getTestInstance({ appSettings: { login_methods: { sms: true } } })
})
afterAll(() => t.close())

it('20 parallel sends to one number: exactly one code is stored and texted', async () => {
  const phone = '+14155550140'
  const results = await Promise.all(
    Array.from({ length: 20 }, () => t.request(routes.smsInit, { body: { phoneNumber: phone } })),
  )
  expect(results.filter((r) => r.status === 200)).toHaveLength(1)
  for (const r of results.filter((r) => r.status !== 200))
    expect(r).toMatchObject({ status: 429, body: { code: 'RESEND_COOLDOWN' } })
  const codes = await t.db
    .selectFrom('otp_codes')
    .select('id')
    .where('identifier', '=', phone)
    .execute()
  expect(codes).toHaveLength(1)
  const outbox = await t.request(`${routes.devOutbox}?to=${encodeURIComponent(phone)}`, {
    appId: null,
  })
  expect(outbox.body.messages).toHaveLength(1)
})
