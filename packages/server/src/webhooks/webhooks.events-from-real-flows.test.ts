import { randomBytes } from 'node:crypto'
import { routes } from '@latchkey/protocol'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { getTestInstance, type TestInstance } from '../test/instance.ts'
import { hdBody } from '../test/wallets.ts'
import type { WebhookEvent } from './events.ts'
import { setTestWebhook, startWebhookReceiver, type WebhookReceiver } from './testing.ts'
import { verifyWebhook } from './verify.ts'

// Each event is emitted by the flow that makes it happen, through the real
// routes, and delivered to a real HTTP receiver that verifies it as an app
// backend would. Payloads carry what the public API shows: no share, no key.
let t: TestInstance
let receiver: WebhookReceiver
let secret: string
beforeAll(async () => {
  const options = { webhooks: { pollIntervalMs: 0 } }
  t = await getTestInstance({
    ...options,
    appSettings: { login_methods: { email: true, guest: true } },
  })
  receiver = await startWebhookReceiver()
  secret = await setTestWebhook(t.server.services, t.app.id, receiver.url)
})
afterAll(async () => {
  await t.close()
  await receiver.close()
})

/** Delivers what is due; returns the events that arrived, verified. */
async function deliveredEvents(): Promise<WebhookEvent[]> {
  const before = receiver.received.length
  await t.server.services.webhooks.deliverDue()
  return receiver.received
    .slice(before)
    .map((r) => verifyWebhook(secret, r.headers, r.body, { now: t.clock.now() }))
}

describe('each event emitted by its real flow', () => {
  it('user.created: sign-up by email code', async () => {
    const { user } = await t.login('webhook-signup@example.com')
    const [event, ...more] = await deliveredEvents()
    expect(more).toEqual([])
    expect(event).toMatchObject({
      type: 'user.created',
      data: {
        user: {
          id: user.id,
          linked_accounts: [{ type: 'email', address: 'webhook-signup@example.com' }],
        },
      },
      timestamp: new Date(t.clock.now() - 31_000).toISOString(),
    })
    // A login of the same user is no sign-up.
    await t.login('webhook-signup@example.com')
    expect(await deliveredEvents()).toEqual([])
  })

  it('user.created for a guest, then user.linked_account when it links an email', async () => {
    const guest = await t.request(routes.guestAuthenticate, {
      body: { guest_credential: randomBytes(32).toString('base64url') },
    })
    const [created] = await deliveredEvents()
    expect(created).toMatchObject({
      type: 'user.created',
      data: { user: { id: guest.body.user.id, is_guest: true } },
    })
    await t.request(routes.emailInit, { body: { email: 'webhook-link@example.com' } })
    const linked = await t.request(routes.emailLink, {
      token: guest.body.token,
      body: {
        email: 'webhook-link@example.com',
        code: await t.lastCode('webhook-link@example.com'),
      },
    })
    expect(linked.status).toBe(200)
    const [event, ...more] = await deliveredEvents()
    expect(more).toEqual([])
    expect(event).toMatchObject({
      type: 'user.linked_account',
      data: {
        user: { id: guest.body.user.id, is_guest: false },
        account: { type: 'email', address: 'webhook-link@example.com' },
      },
    })
  })

  it('a refused link (rolled back) emits nothing', async () => {
    const user = await t.login('webhook-refused@example.com')
    await deliveredEvents()
    t.clock.advance(31_000)
    await t.request(routes.emailInit, { body: { email: 'webhook-other@example.com' } })
    const res = await t.request(routes.emailLink, {
      token: user.token ?? '',
      body: {
        email: 'webhook-other@example.com',
        code: await t.lastCode('webhook-other@example.com'),
      },
    })
    expect(res.status).toBe(400) // one email per user
    expect(await deliveredEvents()).toEqual([])
  })

  it('user.wallet_created: one event per embedded wallet, without shares', async () => {
    const user = await t.login('webhook-wallet@example.com', { enclaveKey: t.enclaveKey })
    await deliveredEvents()
    const body = hdBody({ solana: true })
    const created = await t.enclaveRequest(routes.embeddedWalletsCreate, {
      token: user.token ?? '',
      body,
    })
    expect(created.status).toBe(200)
    const events = await deliveredEvents()
    expect(events.map((e) => e.type)).toEqual(['user.wallet_created', 'user.wallet_created'])
    expect(
      events.map((e) => e.type === 'user.wallet_created' && e.data.wallet.chain_type).sort(),
    ).toEqual(['ethereum', 'solana'])
    for (const e of events)
      expect(e).toMatchObject({
        data: { user: { id: user.user.id }, wallet: { connector_type: 'embedded' } },
      })
    const raw = receiver.received
      .slice(-2)
      .map((r) => r.body)
      .join('\n')
    for (const secretPart of [body.auth_share, body.recovery.ciphertext])
      expect(raw).not.toContain(secretPart)
    expect(raw).not.toContain('recovery_key"')
  })

  it('a refused sign-up (rolled back) emits nothing', async () => {
    const app = await t.createApp({ login_methods: { email: true }, max_users: 1 })
    const other = await startWebhookReceiver()
    try {
      await setTestWebhook(t.server.services, app.id, other.url)
      await t.login('webhook-first@example.com', { appId: app.id })
      await expect(t.login('webhook-second@example.com', { appId: app.id })).rejects.toThrow(
        /USER_LIMIT_REACHED/,
      )
      await t.server.services.webhooks.deliverDue()
      expect(other.received.map((r) => JSON.parse(r.body).type)).toEqual(['user.created'])
    } finally {
      await other.close()
    }
  })

  it('transaction.sent: emitted by services.webhooks.emit', async () => {
    const ids = await t.server.services.webhooks.emit(t.app.id, 'transaction.sent', {
      user_id: null,
      wallet: { address: '0x0000000000000000000000000000000000000001', chain_type: 'ethereum' },
      caip2: 'eip155:8453',
      transaction_hash: `0x${'ab'.repeat(32)}`,
    })
    expect(ids).toHaveLength(1)
    const [event] = await deliveredEvents()
    expect(event).toMatchObject({ type: 'transaction.sent', data: { caip2: 'eip155:8453' } })
    expect(receiver.received.at(-1)?.headers['webhook-id']).toBe(ids[0])
  })

  it('an endpoint receives only the events it subscribed to', async () => {
    const app = await t.createApp({ login_methods: { email: true } })
    const other = await startWebhookReceiver()
    try {
      await setTestWebhook(t.server.services, app.id, other.url, ['user.linked_account'])
      await t.login('webhook-unsubscribed@example.com', { appId: app.id })
      await t.server.services.webhooks.deliverDue()
      expect(other.received).toEqual([])
      const queued = await t.db
        .selectFrom('webhook_outbox')
        .select('id')
        .where('app_id', '=', app.id)
        .execute()
      expect(queued).toEqual([])
    } finally {
      await other.close()
    }
  })
})
