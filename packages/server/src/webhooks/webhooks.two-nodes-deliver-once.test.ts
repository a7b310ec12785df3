import { randomBytes } from 'node:crypto'
import { afterAll, beforeAll, expect, it, vi } from 'vitest'
import { silentLogger } from '../config.ts'
import { createLatchkeyServer, type LatchkeyServer } from '../server.ts'
import { getTestInstance, type TestInstance } from '../test/instance.ts'
import { setTestWebhook, startWebhookReceiver, type WebhookReceiver } from './testing.ts'

// Several server nodes share one database: each node's worker claims due
// rows with a lease, so every event is sent once, by one node. Here two
// server instances on one database, their background workers running.
let t: TestInstance
let second: LatchkeyServer
let receiver: WebhookReceiver
beforeAll(async () => {
  const options = { masterKey: randomBytes(32), webhooks: { pollIntervalMs: 5, batchSize: 4 } }
  t = await getTestInstance(options)
  second = await createLatchkeyServer({
    db: t.db,
    publicUrl: 'http://latchkey.test',
    logger: silentLogger,
    now: t.clock.now,
    ...options,
  })
  receiver = await startWebhookReceiver()
  await setTestWebhook(t.server.services, t.app.id, receiver.url)
})
afterAll(async () => {
  await second.close()
  await t.close()
  await receiver.close()
})

const sent = (n: number) => ({
  user_id: null,
  wallet: { address: `0x${String(n).padStart(40, '0')}`, chain_type: 'ethereum' as const },
  caip2: 'eip155:1',
  transaction_hash: `0x${String(n).padStart(64, '0')}`,
})

it('two workers (two server instances on one database) deliver each event exactly once', async () => {
  const ids: string[] = []
  for (let n = 0; n < 24; n++) {
    const node = n % 2 ? second : t.server
    ids.push(...(await node.services.webhooks.emit(t.app.id, 'transaction.sent', sent(n))))
  }
  // Both background workers run; and both nodes also pass by hand, at the same time.
  await Promise.all([
    t.server.services.webhooks.deliverDue(),
    second.services.webhooks.deliverDue(),
    t.server.services.webhooks.deliverDue(),
    second.services.webhooks.deliverDue(),
  ])
  await receiver.waitFor(ids.length)
  // Let any duplicate that a broken claim would send arrive: more passes of both nodes.
  await Promise.all([
    t.server.services.webhooks.deliverDue(),
    second.services.webhooks.deliverDue(),
  ])
  const got = receiver.received.map((r) => String(r.headers['webhook-id']))
  expect(got.sort()).toEqual([...ids].sort())
  // The answers are recorded just after they arrive.
  await vi.waitFor(async () => {
    const rows = await t.db.selectFrom('webhook_outbox').select(['status', 'attempts']).execute()
    expect(rows).toHaveLength(ids.length)
    for (const row of rows) expect(row).toEqual({ status: 'delivered', attempts: 1 })
  })
})

it("with one node closed, the other node's background worker still delivers (emit wakes it)", async () => {
  await second.close()
  receiver.received.length = 0
  const [id] = await t.server.services.webhooks.emit(t.app.id, 'transaction.sent', sent(99))
  // Delivered by the first node's background worker (emit wakes it).
  const [request] = await receiver.waitFor(1)
  expect(request?.headers['webhook-id']).toBe(id)
})
