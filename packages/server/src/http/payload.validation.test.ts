import { routes } from '@latchkey/protocol'
import { afterAll, beforeAll, expect, it } from 'vitest'
import type { Database } from '../db/types.ts'
import { getTestInstance, type TestInstance } from '../test/instance.ts'

// Every malformed payload gets 400 INVALID_PAYLOAD and writes nothing.
let t: TestInstance
let token: string
beforeAll(async () => {
  t = await getTestInstance()
  token = (await t.login('valid@example.com')).token ?? ''
})
afterAll(() => t.close())

const tables: (keyof Database)[] = [
  'users',
  'linked_accounts',
  'otp_codes',
  'sessions',
  'refresh_tokens',
  'dev_mailbox',
  'analytics_events',
]
const counts = async () =>
  Object.fromEntries(await Promise.all(tables.map(async (n) => [n, await t.countRows(n)])))

const cases: Array<[string, string, { body?: unknown; rawBody?: string; auth?: boolean }]> = [
  ['init: malformed JSON', routes.emailInit, { rawBody: '{"email": ' }],
  ['init: not an object', routes.emailInit, { rawBody: '"a@b.co"' }],
  ['init: no email', routes.emailInit, { body: {} }],
  ['init: email of wrong type', routes.emailInit, { body: { email: 42 } }],
  ['init: bad email syntax', routes.emailInit, { body: { email: 'not-an-email' } }],
  ['init: email with spaces inside', routes.emailInit, { body: { email: 'a b@example.com' } }],
  ['init: overlong email', routes.emailInit, { body: { email: `${'a'.repeat(250)}@example.com` } }],
  [
    'init: disableSignup not boolean',
    routes.emailInit,
    { body: { email: 'a@example.com', disableSignup: 'yes' } },
  ],
  [
    'authenticate: short code',
    routes.emailAuthenticate,
    { body: { email: 'a@example.com', code: '123' } },
  ],
  [
    'authenticate: non-numeric code',
    routes.emailAuthenticate,
    { body: { email: 'a@example.com', code: 'abcdef' } },
  ],
  [
    'authenticate: bad mode',
    routes.emailAuthenticate,
    { body: { email: 'a@example.com', code: '123456', mode: 'admin' } },
  ],
  ['link: missing code', routes.emailLink, { body: { email: 'a@example.com' }, auth: true }],
  ['unlink: bad address', routes.emailUnlink, { body: { address: 'nope' }, auth: true }],
  [
    'update: missing newAddress',
    routes.emailUpdate,
    { body: { oldAddress: 'valid@example.com', code: '123456' }, auth: true },
  ],
  ['refresh: token of wrong type', routes.sessionRefresh, { body: { refresh_token: 123 } }],
  ['refresh: overlong token', routes.sessionRefresh, { body: { refresh_token: 'x'.repeat(500) } }],
  ['logout: malformed JSON', routes.sessionLogout, { rawBody: 'refresh_token=x', auth: true }],
  ['analytics: no event name', routes.analyticsEvents, { body: { payload: {} } }],
  [
    'analytics: payload not an object',
    routes.analyticsEvents,
    { body: { event_name: 'x', payload: [1, 2] } },
  ],
  [
    'analytics: payload too large',
    routes.analyticsEvents,
    { body: { event_name: 'x', payload: { blob: 'x'.repeat(9000) } } },
  ],
  [
    'any: body over 64 KiB',
    routes.emailInit,
    { rawBody: JSON.stringify({ email: 'a@example.com', pad: 'x'.repeat(70_000) }) },
  ],
]

for (const [name, path, input] of cases) {
  it(`${name} → 400 INVALID_PAYLOAD, nothing written`, async () => {
    const before = await counts()
    const res = await t.request(path, {
      method: 'POST',
      ...input,
      ...(input.auth ? { token } : {}),
    })
    expect(res.status).toBe(400)
    expect(res.body).toMatchObject({ code: 'INVALID_PAYLOAD', message: expect.any(String) })
    expect(await counts()).toEqual(before)
  })
}

it('the message names the field at fault in plain words (issue 17: 400 messages are read by users)', async () => {
  const invalid = await t.request(routes.emailInit, { body: { email: 'nope' } })
  expect(invalid.body.message).toBe('The email is not valid.')
  const missing = await t.request(routes.smsUpdate, {
    token,
    body: { old_phone_number: '+14155550100', code: '123456' },
  })
  expect(missing.body).toMatchObject({
    code: 'INVALID_PAYLOAD',
    message: 'The new phone number is missing.',
  })
  const notAnObject = await t.request(routes.emailInit, { rawBody: '"a@b.co"' })
  expect(notAnObject.body.message).toBe('The request is not valid.')
})

it('details name the offending field', async () => {
  const res = await t.request(routes.emailInit, { body: { email: 'nope' } })
  expect(res.body.details).toEqual([
    expect.objectContaining({ path: 'email', message: 'Please enter a valid email address.' }),
  ])
})
