import { routes } from '@latchkey/protocol'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { getTestInstance, type TestInstance } from '../../test/instance.ts'

// The dev outbox: where SMS/WhatsApp codes go while the dev mailbox is on.
let t: TestInstance
beforeAll(async () => {
  t = await getTestInstance({ appSettings: { login_methods: { sms: true } } })
})
afterAll(() => t.close())

it('lists messages newest first as JSON, filtered by number, without an app id', async () => {
  expect(t.server.services.sms.kind).toBe('dev-outbox')
  await t.request(routes.smsInit, { body: { phoneNumber: '+14155552671' } })
  await t.request(routes.smsInit, { body: { phoneNumber: '+447400123456' } })
  const all = await t.request(routes.devOutbox, { appId: null })
  expect(all.status).toBe(200)
  expect(all.body.messages.map((m: { to: string }) => m.to)).toEqual([
    '+447400123456',
    '+14155552671',
  ])
  const one = await t.request(`${routes.devOutbox}?to=%2B1%20415%20555%202671`, { appId: null })
  expect(one.body.messages).toEqual([
    {
      to: '+14155552671',
      channel: 'sms',
      body: expect.stringContaining(one.body.messages[0].code),
      code: expect.stringMatching(/^\d{6}$/),
      created_at: t.clock.now(),
    },
  ])
})

it('serves a readable page at /dev/outbox that escapes what it shows', async () => {
  const app = await t.createApp({ login_methods: { sms: true } })
  await t.db.updateTable('apps').set({ name: '<b>Evil</b>' }).where('id', '=', app.id).execute()
  t.server.services.apps.invalidate(app.id)
  await t.request(routes.smsInit, { body: { phoneNumber: '+33612345678' }, appId: app.id })
  const res = await t.server.app.request('/dev/outbox')
  expect(res.status).toBe(200)
  const html = await res.text()
  expect(html).toContain('Dev outbox')
  expect(html).toContain('+33612345678')
  expect(html).toContain('&lt;b&gt;Evil&lt;/b&gt;')
  expect(html).not.toContain('<b>Evil</b>')
})
