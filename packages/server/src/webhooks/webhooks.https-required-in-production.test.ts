import { afterAll, beforeAll, expect, it } from 'vitest'
import { runCli } from '../cli.ts'
import { getTestInstance, type TestInstance } from '../test/instance.ts'
import { checkWebhookUrl } from './endpoints.ts'
import { newWebhookSecret } from './signature.ts'
import { startWebhookReceiver, type WebhookReceiver } from './testing.ts'

// Events carry user data and are signed, not encrypted: in production they
// go over https only. In development http is allowed to a loopback receiver.
let t: TestInstance
let receiver: WebhookReceiver
const masterKey = Buffer.alloc(32, 9).toString('base64')
beforeAll(async () => {
  // getTestInstance passes the options on to createLatchkeyServer (webhooks included).
  const options = {
    masterKey,
    production: true,
    forceDevMailbox: true,
    webhooks: { pollIntervalMs: 0 },
  }
  t = await getTestInstance(options)
  receiver = await startWebhookReceiver()
})
afterAll(async () => {
  await t.close()
  await receiver.close()
})

async function set(url: string, env: NodeJS.ProcessEnv) {
  const err: string[] = []
  const code = await runCli(['apps', 'webhook', 'set', t.app.id, '--url', url], {
    db: t.db,
    env: { LATCHKEY_MASTER_KEY: masterKey, ...env },
    out: () => {},
    err: (l) => err.push(l),
  })
  return { code, err: err.join('\n') }
}

it('a non-https URL refused in production, loopback included', async () => {
  const production = { NODE_ENV: 'production' }
  for (const url of [
    'http://127.0.0.1:9/hooks',
    'http://localhost/hooks',
    'http://api.example/hooks',
  ])
    expect(await set(url, production)).toEqual({
      code: 1,
      err: 'Error: The webhook URL must be https in production',
    })
  expect(await t.countRows('webhook_endpoints')).toBe(0)
  expect(await set('https://api.example/hooks', production)).toMatchObject({ code: 0 })
})

it('outside production: http only to a loopback host; no other scheme; no credentials', () => {
  expect(checkWebhookUrl('http://127.0.0.1:3000/h', false)).toBe('http://127.0.0.1:3000/h')
  expect(checkWebhookUrl('http://localhost/h', false)).toBe('http://localhost/h')
  expect(checkWebhookUrl('http://[::1]/h', false)).toBe('http://[::1]/h')
  expect(() => checkWebhookUrl('http://api.example/h', false)).toThrow(/must be https/)
  expect(() => checkWebhookUrl('ftp://api.example/h', false)).toThrow(/must be https/)
  expect(() => checkWebhookUrl('https://user:pw@api.example/h', false)).toThrow(/credentials/)
  expect(() => checkWebhookUrl('not a url', false)).toThrow(/not a URL/)
})

it('a production server does not call an http URL that got into the database', async () => {
  // Written around the CLI's check (e.g. set while NODE_ENV was not production).
  const endpoint = await t.db.selectFrom('webhook_endpoints').select('id').executeTakeFirstOrThrow()
  const sealed = t.server.services.secrets.encrypt(
    'webhook-secrets',
    JSON.stringify(['webhook_endpoints', t.app.id, endpoint.id, 'secret']),
    newWebhookSecret(),
  )
  await t.db.updateTable('webhook_endpoints').set({ url: receiver.url, secret: sealed }).execute()
  const [id = ''] = await t.server.services.webhooks.emit(t.app.id, 'user.created', {
    user: { id: 'did:latchkey:p' } as never,
  })
  await t.server.services.webhooks.deliverDue()
  expect(receiver.received).toEqual([])
  const row = await t.db
    .selectFrom('webhook_outbox')
    .selectAll()
    .where('id', '=', id)
    .executeTakeFirstOrThrow()
  expect(row).toMatchObject({
    status: 'pending',
    last_error: 'The webhook URL must be https in production',
  })
})
