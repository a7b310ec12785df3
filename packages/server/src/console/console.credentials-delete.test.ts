import { afterAll, beforeAll, expect, it } from 'vitest'
import { getAppProviderCredentials } from '../apps/credentials.ts'
import { getTestInstance, type TestInstance } from '../test/instance.ts'
import { adminCli, consoleRequest, signIn } from './console.test-helper.ts'

// Removing an app's credentials in the console (console/credential-routes.ts),
// as `latchkey apps credentials delete ID PROVIDER` does: the row is gone (the
// provider's button or capability stops), the removal is audited with the
// provider only, removing what is not there changes and audits nothing, and an
// unknown provider is refused by name.
let t: TestInstance
let session: string
beforeAll(async () => {
  t = await getTestInstance()
  session = await signIn(t, 'ops')
})
afterAll(() => t.close())

const SECRET = 'sk_test_moonpaysecret0123456789'
const url = (suffix = '') => `/apps/${t.app.id}/sign-in-credentials${suffix}`
const store = () => ({ db: t.db, secrets: t.server.services.secrets })
const remove = (provider: string) => {
  t.clock.advance(1)
  return consoleRequest(t, url('/delete'), { session, body: { provider } })
}
const deletions = async () =>
  (
    await t.db
      .selectFrom('admin_audit')
      .select(['action', 'app_id', 'target', 'detail'])
      .where('action', '=', 'app.credentials_deleted')
      .orderBy('created_at')
      .execute()
  ).map((row) => [row.app_id, row.target, JSON.parse(row.detail)])

it('deletes a stored credential and audits it; the list no longer has it', async () => {
  expect(
    (await consoleRequest(t, url(), { session, body: { provider: 'moonpay', secret_key: SECRET } }))
      .status,
  ).toBe(200)
  expect(
    (
      await consoleRequest(t, url(), {
        session,
        body: { provider: 'google', client_id: 'client.apps.example', client_secret: 'GOCSPX-1' },
      })
    ).status,
  ).toBe(200)

  const res = await remove('moonpay')
  expect(res.status).toBe(200)
  expect(res.body).toEqual({ deleted: true })
  expect(res.text).not.toContain(SECRET)
  expect(await getAppProviderCredentials(store(), t.app.id, 'moonpay')).toBeUndefined()
  expect((await consoleRequest(t, url(), { session })).body).toEqual({
    credentials: [{ provider: 'google', client_id: 'client.apps.example' }],
  })
  expect((await remove('google')).body).toEqual({ deleted: true })
  expect(await deletions()).toEqual([
    [t.app.id, 'moonpay', {}],
    [t.app.id, 'google', {}],
  ])
  const log = await consoleRequest(t, '/audit', { session })
  expect(log.body.data[0]).toMatchObject({
    action: 'app.credentials_deleted',
    admin_name: 'ops',
    target: 'google',
  })
})

it('matches the CLI: deleting what is not there deletes nothing and audits nothing', async () => {
  const before = await t.countRows('admin_audit')
  expect((await remove('moonpay')).body).toEqual({ deleted: false })
  const cli = await adminCli(t, 'apps', 'credentials', 'delete', t.app.id, 'moonpay')
  expect(cli.out).toBe(`App ${t.app.id} had no moonpay credentials`)
  expect(await t.countRows('admin_audit')).toBe(before)
})

it('an unknown provider is 400 by name, an unknown app 404; nothing is deleted', async () => {
  await consoleRequest(t, url(), {
    session,
    body: { provider: 'turnstile', secret_key: 'turnstile-secret-0123' },
  })
  const unknown = await remove('myspace')
  expect(unknown.status).toBe(400)
  expect(unknown.body).toMatchObject({
    code: 'INVALID_PAYLOAD',
    message: 'The provider is not valid.',
  })
  const missing = await consoleRequest(t, '/apps/nosuchapp/sign-in-credentials/delete', {
    session,
    body: { provider: 'turnstile' },
  })
  expect(missing.status).toBe(404)
  expect(missing.body.code).toBe('APP_NOT_FOUND')
  expect(await t.countRows('app_provider_credentials')).toBe(1)
})
