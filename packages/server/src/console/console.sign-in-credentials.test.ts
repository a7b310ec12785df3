import { afterAll, beforeAll, expect, it } from 'vitest'
import { getAppProviderCredentials } from '../apps/credentials.ts'
import { getTestInstance, type TestInstance } from '../test/instance.ts'
import { consoleRequest, signIn } from './console.test-helper.ts'

// The sign-in providers' credentials in the console (console/credential-routes.ts),
// as `apps credentials set` stores them: sealed at rest, the secret write-only
// (no answer carries it or its sealed blob), a change without a secret keeping
// the stored one, a refused value named by field, and every change audited.
let t: TestInstance
let session: string
beforeAll(async () => {
  t = await getTestInstance()
  session = await signIn(t, 'idp-admin')
})
afterAll(() => t.close())

const CLIENT_SECRET = 'GOCSPX-very-secret-value-0123456789'
const BOT_TOKEN = '7654321:AAH-telegram-secret-token-0123456789'
const path = (appId = t.app.id) => `/apps/${appId}/sign-in-credentials`
const store = () => ({ db: t.db, secrets: t.server.services.secrets })
/** POST one change, a millisecond after the last (the audit log is read in order). */
const set = (body: Record<string, string>) => {
  t.clock.advance(1)
  return consoleRequest(t, path(), { session, body })
}
const sealed = async () =>
  (
    await t.db
      .selectFrom('app_provider_credentials')
      .select('client_secret')
      .where('app_id', '=', t.app.id)
      .execute()
  ).map((row) => String(row.client_secret))

it('sets an OAuth client and the Telegram bot; answers and lists only their public half', async () => {
  expect((await consoleRequest(t, path(), { session })).body).toEqual({ credentials: [] })

  const google = await set({
    provider: 'google',
    client_id: 'client-1.apps.example',
    client_secret: CLIENT_SECRET,
  })
  expect(google.status).toBe(200)
  expect(google.body).toEqual({ provider: 'google', client_id: 'client-1.apps.example' })
  const telegram = await set({
    provider: 'telegram',
    bot_name: 'example_bot',
    bot_token: BOT_TOKEN,
  })
  expect(telegram.body).toEqual({ provider: 'telegram', bot_name: 'example_bot' })

  expect(await getAppProviderCredentials(store(), t.app.id, 'google')).toEqual({
    provider: 'google',
    client_id: 'client-1.apps.example',
    client_secret: CLIENT_SECRET,
  })
  const listed = await consoleRequest(t, path(), { session })
  expect(listed.body).toEqual({
    credentials: [
      { provider: 'google', client_id: 'client-1.apps.example' },
      { provider: 'telegram', bot_name: 'example_bot' },
    ],
  })

  // Sealed at rest; neither the secrets nor their blobs are in any answer.
  const blobs = await sealed()
  expect(blobs).toHaveLength(2)
  const app = await consoleRequest(t, `/apps/${t.app.id}`, { session })
  for (const res of [google, telegram, listed, app])
    for (const secret of [CLIENT_SECRET, BOT_TOKEN, ...blobs])
      expect(res.text).not.toContain(secret)
  for (const blob of blobs)
    for (const secret of [CLIENT_SECRET, BOT_TOKEN]) expect(blob).not.toContain(secret)
})

it('a change without a secret keeps the stored one; none stored yet is refused', async () => {
  const renamed = await set({ provider: 'google', client_id: 'client-2.apps.example' })
  expect(renamed.status).toBe(200)
  expect(await getAppProviderCredentials(store(), t.app.id, 'google')).toEqual({
    provider: 'google',
    client_id: 'client-2.apps.example',
    client_secret: CLIENT_SECRET,
  })
  const bot = await set({ provider: 'telegram', bot_name: 'other_bot' })
  expect(bot.status).toBe(200)
  expect((await getAppProviderCredentials(store(), t.app.id, 'telegram'))?.bot_token).toBe(
    BOT_TOKEN,
  )

  const none = await set({ provider: 'github', client_id: 'Iv1.abc' })
  expect(none.status).toBe(400)
  expect(none.body).toMatchObject({
    code: 'INVALID_PAYLOAD',
    message: 'client_secret is needed: the app has no github client yet',
  })
})

it('refuses a bad value by field name, never echoing it; each change is audited', async () => {
  const before = await t.countRows('admin_audit')
  const bad = await set({
    provider: 'telegram',
    bot_name: 'example_bot',
    bot_token: 'not a token at all',
  })
  expect(bad.status).toBe(400)
  expect(bad.body.message).toBe(
    'Invalid telegram credentials: bot_token: bot_token must look like 123456:ABC-DEF…',
  )
  expect(bad.text).not.toContain('not a token at all')
  const unknown = await set({ provider: 'myspace', client_id: 'x', client_secret: 'y' })
  expect(unknown.status).toBe(400)
  expect(await t.countRows('admin_audit')).toBe(before)

  const rows = await t.db
    .selectFrom('admin_audit')
    .select(['action', 'target', 'detail'])
    .where('action', '=', 'app.credentials_set')
    .orderBy('created_at')
    .execute()
  expect(rows.map((row) => [row.target, JSON.parse(row.detail)])).toEqual([
    ['google', { secret_changed: true }],
    ['telegram', { secret_changed: true }],
    ['google', { secret_changed: false }],
    ['telegram', { secret_changed: false }],
  ])
  const log = await consoleRequest(t, '/audit', { session })
  expect(log.body.data[0]).toMatchObject({ admin_name: 'idp-admin', app_id: t.app.id })
  expect(log.text).not.toContain(CLIENT_SECRET)
})

it('an unknown app is 404', async () => {
  const missing = await consoleRequest(t, path('nosuchapp'), {
    session,
    body: { provider: 'google', client_id: 'x', client_secret: 'y' },
  })
  expect(missing.status).toBe(404)
  expect(missing.body.code).toBe('APP_NOT_FOUND')
})
