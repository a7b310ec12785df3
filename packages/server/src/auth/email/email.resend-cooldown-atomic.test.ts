import { CODE_RESEND_COOLDOWN_MS, routes } from '@latchkey/protocol'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { getTestInstance, type TestInstance } from '../../test/instance.ts'

// Tracker issue 15, 7c: the resend cooldown (one code per address per 30 s)
// is claimed by one conditional upsert, so it holds under concurrent sends on
// Postgres (real parallel connections) as on SQLite. Run with DATABASE_URL
// set for the Postgres case.
let t: TestInstance
beforeAll(async () => {
  t = await getTestInstance()
})
afterAll(() => t.close())

const sendTo = (email: string) => t.request(routes.emailInit, { body: { email } })

const codesFor = async (identifier: string) =>
  (await t.db.selectFrom('otp_codes').select('id').where('identifier', '=', identifier).execute())
    .length

it('20 parallel sends to one address: exactly one code is stored and mailed', async () => {
  const email = 'parallel@example.com'
  const results = await Promise.all(Array.from({ length: 20 }, () => sendTo(email)))
  expect(results.filter((r) => r.status === 200)).toHaveLength(1)
  // Refused whether they lost the read or the claim: both say the full cooldown is left.
  for (const r of results.filter((r) => r.status !== 200))
    expect(r).toMatchObject({
      status: 429,
      body: { code: 'RESEND_COOLDOWN', retry_after: CODE_RESEND_COOLDOWN_MS / 1000 },
    })
  expect(await codesFor(email)).toBe(1)
  const mailbox = await t.db
    .selectFrom('dev_mailbox')
    .select('id')
    .where('to', '=', email)
    .execute()
  expect(mailbox).toHaveLength(1)
  // The burst spent one send of the address's hourly budget, not twenty.
  expect(await t.server.services.limiter.peek(`otp-send:${t.app.id}:email:${email}`)).toBe(1)
})

it('after the cooldown, another parallel burst again yields exactly one new code, which works', async () => {
  const email = 'parallel-again@example.com'
  expect((await sendTo(email)).status).toBe(200)
  t.clock.advance(CODE_RESEND_COOLDOWN_MS - 1)
  expect((await sendTo(email)).body.code).toBe('RESEND_COOLDOWN')
  t.clock.advance(1)
  const results = await Promise.all(Array.from({ length: 20 }, () => sendTo(email)))
  expect(results.filter((r) => r.status === 200)).toHaveLength(1)
  expect(await codesFor(email)).toBe(2)
  const code = await t.lastCode(email)
  const login = await t.request(routes.emailAuthenticate, { body: { email, code } })
  expect(login.status).toBe(200)
})

it('parallel sends to different spellings of one address share the cooldown', async () => {
  const spellings = ['Mixed@Example.com', 'mixed@example.com', 'MIXED@EXAMPLE.COM']
  const results = await Promise.all(
    Array.from({ length: 18 }, (_, i) => sendTo(spellings[i % 3] as string)),
  )
  expect(results.filter((r) => r.status === 200)).toHaveLength(1)
  expect(await codesFor('mixed@example.com')).toBe(1)
})
