import { afterAll, beforeAll, expect, it } from 'vitest'
import { METRICS_TOKEN, sample, scrape } from '../metrics/scrape.test-helper.ts'
import { getTestInstance, type TestInstance } from '../test/instance.ts'
import { setTestWebhook, startWebhookReceiver, type WebhookReceiver } from './testing.ts'

// docs/operations.md "Metrics": latchkey_webhook_deliveries_total{outcome},
// one count per attempt: delivered, retry (failed, tried again later), failed (given up).
let t: TestInstance
let receiver: WebhookReceiver
beforeAll(async () => {
  const options = {
    metrics: { token: METRICS_TOKEN },
    webhooks: { pollIntervalMs: 0, retryScheduleMs: [1_000] },
  }
  t = await getTestInstance(options)
  receiver = await startWebhookReceiver()
  await setTestWebhook(t.server.services, t.app.id, receiver.url)
})
afterAll(async () => {
  await t.close()
  await receiver.close()
})

it('counts webhook deliveries by outcome', async () => {
  const count = async (outcome: string) =>
    sample(await scrape(t), 'latchkey_webhook_deliveries_total', { outcome })
  expect(await count('delivered')).toBe(0)
  const emit = () =>
    t.server.services.webhooks.emit(t.app.id, 'user.created', { user: { id: 'u' } as never })
  await emit()
  await t.server.services.webhooks.deliverDue()
  receiver.answers = [500]
  await emit()
  await t.server.services.webhooks.deliverDue()
  t.clock.advance(1_000)
  await t.server.services.webhooks.deliverDue()
  expect({
    delivered: await count('delivered'),
    retry: await count('retry'),
    failed: await count('failed'),
  }).toEqual({ delivered: 1, retry: 1, failed: 1 })
})
