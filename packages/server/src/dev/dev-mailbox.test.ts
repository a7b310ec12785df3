import { routes } from '@latchkey/protocol'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { getTestInstance, type TestInstance } from '../test/instance.ts'

let t: TestInstance
const lines: string[] = []
beforeAll(async () => {
  t = await getTestInstance({
    logger: {
      // Access lines ('request', one per call) aside: every other line.
      info: (m) => {
        if (m !== 'request') lines.push(m)
      },
      warn: (m) => lines.push(m),
      error: (m) => lines.push(m),
    },
  })
})
afterAll(() => t.close())

it('lists messages newest first with the code extracted, filtered by recipient', async () => {
  await t.request(routes.emailInit, { body: { email: 'dev1@example.com' } })
  await t.request(routes.emailInit, { body: { email: 'dev2@example.com' } })
  const all = await t.request(routes.devMailbox, { appId: null })
  expect(all.body.messages.map((m: { to: string }) => m.to)).toEqual([
    'dev2@example.com',
    'dev1@example.com',
  ])
  const one = await t.request(`${routes.devMailbox}?to=DEV1@example.com`, { appId: null })
  expect(one.body.messages).toHaveLength(1)
  expect(one.body.messages[0]).toMatchObject({
    to: 'dev1@example.com',
    code: expect.stringMatching(/^\d{6}$/),
  })
})

it('prints one marked line per message, and nothing else mentions the code', async () => {
  const before = lines.length
  await t.request(routes.emailInit, { body: { email: 'dev3@example.com' } })
  const code = await t.lastCode('dev3@example.com')
  const printed = lines.slice(before)
  expect(printed).toEqual([
    `[dev mailbox] to dev3@example.com: ${code} — Your Test App login code is ${code}`,
  ])
  const auth = await t.request(routes.emailAuthenticate, {
    body: { email: 'dev3@example.com', code },
  })
  expect(lines.slice(before + 1).join('\n')).not.toContain(code)
  expect(lines.join('\n')).not.toContain(auth.body.token)
  expect(lines.join('\n')).not.toContain(auth.body.refresh_token)
})

it('serves an escaped HTML page', async () => {
  await t.db
    .insertInto('dev_mailbox')
    .values({
      app_id: null,
      to: 'x@example.com',
      subject: '<script>alert(1)</script>',
      text: 'hi & bye',
      created_at: 1,
    })
    .execute()
  const res = await t.server.app.request('/dev/mailbox')
  const html = await res.text()
  expect(res.headers.get('content-type')).toContain('text/html')
  expect(html).toContain('&lt;script&gt;alert(1)&lt;/script&gt;')
  expect(html).not.toContain('<script>alert(1)')
  expect(html).toContain('hi &amp; bye')
})
