import { sql } from 'kysely'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { runCli } from '../cli.ts'
import { getTestInstance, type TestInstance } from '../test/instance.ts'
import { signingSecrets, WEBHOOK_SECRETS_PURPOSE } from './endpoints.ts'
import { startWebhookReceiver, type WebhookReceiver } from './testing.ts'
import { verifyWebhook } from './verify.ts'

// The server signs with the secret, so it is kept sealed (AES-256-GCM under
// the master key), never in the clear: a database dump yields no secret. The
// CLI prints it once, when made; show never prints it.
let t: TestInstance
let receiver: WebhookReceiver
const masterKey = Buffer.alloc(32, 7).toString('base64')
beforeAll(async () => {
  t = await getTestInstance({ masterKey, webhooks: { pollIntervalMs: 0 } } as object)
  receiver = await startWebhookReceiver()
})
afterAll(async () => {
  await t.close()
  await receiver.close()
})

async function cli(args: string[], env: NodeJS.ProcessEnv = {}) {
  const out: string[] = []
  const err: string[] = []
  const code = await runCli(args, {
    db: t.db,
    env: { LATCHKEY_MASTER_KEY: masterKey, ...env },
    out: (l) => out.push(l),
    err: (l) => err.push(l),
  })
  return { code, out: out.join('\n'), err: err.join('\n') }
}

/** Every text value in the webhook tables. */
async function dump(): Promise<string> {
  const endpoints = await sql`select * from webhook_endpoints`.execute(t.db)
  const outbox = await sql`select * from webhook_outbox`.execute(t.db)
  return JSON.stringify([endpoints.rows, outbox.rows])
}

describe('secret sealed at rest', () => {
  it('the raw secret is not in the database; the CLI shows it once', async () => {
    const set = await cli(['apps', 'webhook', 'set', t.app.id, '--url', receiver.url, '--json'])
    expect(set).toMatchObject({ code: 0 })
    const { secret, events, enabled } = JSON.parse(set.out)
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/)
    expect(Buffer.from(secret.slice(6), 'base64')).toHaveLength(32)
    expect(events).toEqual([
      'user.created',
      'user.linked_account',
      'user.wallet_created',
      'transaction.sent',
    ])
    expect(enabled).toBe(true)
    const rows = await dump()
    expect(rows).not.toContain(secret.slice(6))
    expect(rows).not.toContain(Buffer.from(secret.slice(6), 'base64').toString('hex'))
    // The column opens only with the master key, for this app and endpoint.
    const row = await t.db.selectFrom('webhook_endpoints').selectAll().executeTakeFirstOrThrow()
    expect(signingSecrets(t.server.services.secrets, row, t.clock.now())).toEqual([secret])
    expect(() =>
      t.server.services.secrets.decrypt(WEBHOOK_SECRETS_PURPOSE, 'another row', row.secret),
    ).toThrow()

    // show and a later set never print it.
    const show = await cli(['apps', 'webhook', 'show', t.app.id])
    expect(show.out).toContain(receiver.url)
    expect(show.out).not.toContain(secret)
    const update = await cli(['apps', 'webhook', 'set', t.app.id, '--event', 'user.created'])
    expect(update).toMatchObject({ code: 0 })
    expect(update.out).not.toContain('whsec_')
  })

  it('rotate-secret: a new secret once; both sign for 24 h, then only the new one', async () => {
    const before = await t.db.selectFrom('webhook_endpoints').selectAll().executeTakeFirstOrThrow()
    const [old = ''] = signingSecrets(t.server.services.secrets, before, t.clock.now())
    const rotated = await cli(['apps', 'webhook', 'rotate-secret', t.app.id, '--json'])
    expect(rotated.code).toBe(0)
    const { secret } = JSON.parse(rotated.out)
    expect(secret).not.toBe(old)
    expect(await dump()).not.toContain(secret.slice(6))
    expect(await dump()).not.toContain(old.slice(6))

    // Deliveries carry two signatures: receivers on either secret accept them.
    await t.server.services.webhooks.emit(t.app.id, 'user.created', {
      user: { id: 'did:latchkey:x' } as never,
    })
    // The CLI used the real clock; the test clock is years ahead of the rotation's 24 h.
    await t.db
      .updateTable('webhook_endpoints')
      .set({ previous_secret_expires_at: t.clock.now() + 60_000 })
      .execute()
    await t.server.services.webhooks.deliverDue()
    const [request] = receiver.received
    if (!request) throw new Error('not delivered')
    expect(String(request.headers['webhook-signature']).split(' ')).toHaveLength(2)
    for (const key of [secret, old])
      expect(verifyWebhook(key, request.headers, request.body, { now: t.clock.now() }).type).toBe(
        'user.created',
      )
    // After the window, only the new secret signs.
    t.clock.advance(60_000)
    await t.server.services.webhooks.emit(t.app.id, 'user.created', {
      user: { id: 'did:latchkey:y' } as never,
    })
    await t.server.services.webhooks.deliverDue()
    expect(String(receiver.received[1]?.headers['webhook-signature']).split(' ')).toHaveLength(1)
  })

  it('--drop-previous ends the old secret at once', async () => {
    const rotated = await cli(['apps', 'webhook', 'rotate-secret', t.app.id, '--drop-previous'])
    expect(rotated.out).toContain('The previous secret no longer signs.')
    const row = await t.db.selectFrom('webhook_endpoints').selectAll().executeTakeFirstOrThrow()
    expect(row.previous_secret).toBeNull()
  })

  it('delete removes the webhook and its undelivered events', async () => {
    await t.server.services.webhooks.emit(t.app.id, 'user.created', { user: { id: 'z' } as never })
    expect(await cli(['apps', 'webhook', 'delete', t.app.id])).toMatchObject({ code: 0 })
    expect(await t.countRows('webhook_endpoints')).toBe(0)
    expect(await t.countRows('webhook_outbox')).toBe(0)
    expect(await cli(['apps', 'webhook', 'show', t.app.id])).toMatchObject({ code: 1 })
  })
})
