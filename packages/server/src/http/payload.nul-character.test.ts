import { routes } from '@latchkey/protocol'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { getTestInstance, type TestInstance } from '../test/instance.ts'

// Found by the route fuzzer (http/fuzz.no-5xx.test.ts) on PostgreSQL: a
// U+0000 in a body or query field that reaches a query (a transfer's nonce,
// an analytics event name, the dev mailbox's address) was a 500, since
// PostgreSQL text cannot hold it ("invalid byte sequence for encoding UTF8:
// 0x00"). No protocol field carries one: the route layer now refuses it,
// 400 INVALID_PAYLOAD naming the field, on both databases alike.
let t: TestInstance
let token: string
beforeAll(async () => {
  t = await getTestInstance({ appSettings: { login_methods: { email: true, wallet: true } } })
  token = (await t.login('nul@example.com')).token ?? ''
})
afterAll(() => t.close())

it.each([
  ['a transfer nonce', routes.siwsTransfer, { nonce: 'a\u0000b', address: 'x' }, 'nonce', true],
  ['an event name', routes.analyticsEvents, { event_name: 'a\u0000' }, 'event_name', false],
  [
    'a nested value',
    routes.analyticsEvents,
    { event_name: 'x', payload: { note: ['\u0000'] } },
    'payload.note.0',
    false,
  ],
  [
    'a key',
    routes.analyticsEvents,
    { event_name: 'x', payload: { 'k\u0000': 1 } },
    'payload.k\u0000',
    false,
  ],
])('a NUL in %s is 400 INVALID_PAYLOAD naming the field', async (_, path, body, field, auth) => {
  const res = await t.request(path, { body, ...(auth ? { token } : {}) })
  expect(res.status).toBe(400)
  expect(res.body).toMatchObject({ code: 'INVALID_PAYLOAD', details: [{ path: field }] })
  expect(res.body.message).toMatch(/^The .+ is not valid\.$/)
})

it('a NUL in a query parameter is refused the same way', async () => {
  const res = await t.request(`${routes.devMailbox}?to=a%00b`, { appId: null })
  expect(res.status).toBe(400)
  expect(res.body).toMatchObject({ code: 'INVALID_PAYLOAD', message: 'The to is not valid.' })
  const page = await t.request('/dev/mailbox?to=a%00b', { appId: null })
  expect(page.status).toBe(200)
})

it('the check walks a body nested 30 000 levels deep without overflowing', async () => {
  const deep = (leaf: string) => `${'['.repeat(30_000)}${leaf}${']'.repeat(30_000)}`
  for (const leaf of ['"\\u0000"', '1']) {
    const res = await t.request(routes.analyticsEvents, { rawBody: deep(leaf) })
    expect(res.status).toBe(400)
    expect(res.body).toMatchObject({ code: 'INVALID_PAYLOAD' })
  }
})
