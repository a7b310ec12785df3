import { routes } from '@latchkey/protocol'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { getTestInstance, type TestInstance } from '../test/instance.ts'

let t: TestInstance
beforeAll(async () => {
  t = await getTestInstance()
})
afterAll(() => t.close())

it('stores a valid event', async () => {
  const res = await t.request(routes.analyticsEvents, {
    body: {
      event_name: 'sdk_initialize',
      client_id: 'client-1',
      payload: { clientTimestamp: '2030-01-01T00:00:00Z' },
    },
  })
  expect(res).toMatchObject({ status: 200, body: { success: true } })
  const row = await t.db.selectFrom('analytics_events').selectAll().executeTakeFirstOrThrow()
  expect(row).toMatchObject({
    app_id: t.app.id,
    event_name: 'sdk_initialize',
    client_id: 'client-1',
  })
  expect(JSON.parse(row.payload)).toEqual({ clientTimestamp: '2030-01-01T00:00:00Z' })
})

it('takes the client id from the header when the body has none', async () => {
  await t.request(routes.analyticsEvents, {
    body: { event_name: 'from_header' },
    headers: { 'latchkey-client-id': 'hdr-client' },
  })
  const row = await t.db
    .selectFrom('analytics_events')
    .selectAll()
    .where('event_name', '=', 'from_header')
    .executeTakeFirstOrThrow()
  expect(row.client_id).toBe('hdr-client')
})
