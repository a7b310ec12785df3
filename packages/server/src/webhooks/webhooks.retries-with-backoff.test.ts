import { afterAll, afterEach, beforeAll, expect, it } from 'vitest'
import { getTestInstance, type TestInstance } from '../test/instance.ts'
import { DEFAULT_RETRY_SCHEDULE_MS } from './claim.ts'
import { setWebhookEndpoint } from './endpoints.ts'
import { setTestWebhook, startWebhookReceiver, type WebhookReceiver } from './testing.ts'
import { verifyWebhook } from './verify.ts'

// Delivery: 2xx = delivered; anything else is retried after 5 s, 5 min,
// 30 min, 2 h, 5 h, 10 h, then given up. The test clock drives the schedule:
// nothing is attempted before it is due. Each attempt is signed afresh, so a
// retry hours later still passes the receiver's 5-minute replay window.
let t: TestInstance
let receiver: WebhookReceiver
let secret: string
const lines: string[] = []
const logger = {
  info: (m: string, f?: object) => lines.push(`${m} ${JSON.stringify(f ?? {})}`),
  warn: (m: string, f?: object) => lines.push(`${m} ${JSON.stringify(f ?? {})}`),
  error: (m: string, f?: object) => lines.push(`${m} ${JSON.stringify(f ?? {})}`),
}
beforeAll(async () => {
  const options = { webhooks: { pollIntervalMs: 0, timeoutMs: 300 }, logger }
  t = await getTestInstance(options)
  receiver = await startWebhookReceiver()
  secret = await setTestWebhook(t.server.services, t.app.id, receiver.url)
})
afterAll(async () => {
  await t.close()
  await receiver.close()
})
afterEach(async () => {
  await t.db.deleteFrom('webhook_outbox').execute()
  receiver.received.length = 0
  receiver.answers = [204]
})

const emit = () =>
  t.server.services.webhooks.emit(t.app.id, 'transaction.sent', {
    user_id: null,
    wallet: { address: '0x0000000000000000000000000000000000000002', chain_type: 'ethereum' },
    caip2: 'eip155:1',
    transaction_hash: `0x${'cd'.repeat(32)}`,
  })
const row = async (id: string) =>
  t.db.selectFrom('webhook_outbox').selectAll().where('id', '=', id).executeTakeFirstOrThrow()
const deliver = () => t.server.services.webhooks.deliverDue()

it('retries with backoff until 2xx', async () => {
  receiver.answers = [500, 503, 429, 204]
  const [id = ''] = await emit()
  expect(await deliver()).toBe(1)
  expect(await row(id)).toMatchObject({ status: 'pending', attempts: 1, last_status: 500 })
  for (const [i, wait] of DEFAULT_RETRY_SCHEDULE_MS.slice(0, 3).entries()) {
    // Not due yet: nothing is sent.
    t.clock.advance(wait - 1)
    expect(await deliver()).toBe(0)
    t.clock.advance(1)
    expect(await deliver()).toBe(1)
    expect(receiver.received).toHaveLength(i + 2)
  }
  expect(await row(id)).toMatchObject({ status: 'delivered', attempts: 4, last_status: 204 })
  // Same id on every attempt; each one signed at its own time, verifiable then.
  expect(new Set(receiver.received.map((r) => r.headers['webhook-id']))).toEqual(new Set([id]))
  const last = receiver.received.at(-1)
  if (!last) throw new Error('no request')
  expect(verifyWebhook(secret, last.headers, last.body, { now: t.clock.now() }).type).toBe(
    'transaction.sent',
  )
  // Delivered: never sent again.
  t.clock.advance(24 * 60 * 60_000)
  expect(await deliver()).toBe(0)
})

it('gives up after the last scheduled retry (status failed)', async () => {
  receiver.answers = [500]
  const [id = ''] = await emit()
  await deliver()
  for (const wait of DEFAULT_RETRY_SCHEDULE_MS) {
    t.clock.advance(wait)
    expect(await deliver()).toBe(1)
  }
  expect(receiver.received).toHaveLength(DEFAULT_RETRY_SCHEDULE_MS.length + 1)
  expect(await row(id)).toMatchObject({ status: 'failed', attempts: 7, last_error: 'HTTP 500' })
  t.clock.advance(24 * 60 * 60_000)
  expect(await deliver()).toBe(0)
})

it('a redirect is not followed and counts as a failure', async () => {
  receiver.answers = [302, 204]
  const [id = ''] = await emit()
  await deliver()
  expect(await row(id)).toMatchObject({ status: 'pending', last_status: 302 })
})

it('timeouts enforced: an answer that never comes is a failed attempt', async () => {
  receiver.answers = ['hang', 204]
  const [id = ''] = await emit()
  await deliver()
  expect(await row(id)).toMatchObject({
    status: 'pending',
    attempts: 1,
    last_status: null,
    last_error: 'no answer within 300 ms',
  })
  t.clock.advance(5_000)
  await deliver()
  expect(await row(id)).toMatchObject({ status: 'delivered', attempts: 2 })
})

it('a receiver down then up gets the event once', async () => {
  await receiver.close()
  const [id = ''] = await emit()
  await deliver()
  expect(await row(id)).toMatchObject({
    status: 'pending',
    last_error: 'request failed (ECONNREFUSED)',
  })
  await receiver.listen() // the same port
  t.clock.advance(5_000)
  await deliver()
  t.clock.advance(24 * 60 * 60_000)
  await deliver()
  expect(receiver.received.map((r) => r.headers['webhook-id'])).toEqual([id])
  expect(await row(id)).toMatchObject({ status: 'delivered', attempts: 2 })
})

it('a disabled endpoint stops deliveries; enabled again, it gets them', async () => {
  const [id = ''] = await emit()
  const store = t.server.services
  await setWebhookEndpoint(store, t.app.id, { enabled: false, production: false })
  t.clock.advance(60_000)
  expect(await deliver()).toBe(0)
  // New events are not queued for it either.
  expect(await emit()).toEqual([])
  expect(receiver.received).toEqual([])
  expect(await row(id)).toMatchObject({ status: 'pending', attempts: 0 })
  await setWebhookEndpoint(store, t.app.id, { enabled: true, production: false })
  expect(await deliver()).toBe(1)
  expect(receiver.received.map((r) => r.headers['webhook-id'])).toEqual([id])
})

it('logs never contain the secret, the URL path or query, or the body', async () => {
  receiver.answers = [500, 204]
  await emit()
  await deliver()
  const logged = lines.join('\n')
  expect(logged).toContain('webhook delivery failed')
  expect(logged).toContain(`http://127.0.0.1:${receiver.port}`)
  for (const hidden of [secret, secret.slice(6), 'url-secret', '/hooks/latchkey', 'cdcdcd'])
    expect(logged).not.toContain(hidden)
})
