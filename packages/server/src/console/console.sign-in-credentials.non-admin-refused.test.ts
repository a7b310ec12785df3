import { afterAll, beforeAll, expect, it } from 'vitest'
import { basicAuth } from '../apps/app-secrets.test-helper.ts'
import { getTestInstance, type TestInstance } from '../test/instance.ts'
import { adminCli, consoleRequest, createAdminWithCli, sessionFrom } from './console.test-helper.ts'

// Only a signed-in admin reads or sets an app's sign-in credentials (the OAuth
// client secrets and the Telegram bot token): the app secret — as a session,
// Basic or bearer —, a user's access token, a revoked admin's session, no CSRF
// header or another origin are refused, and nothing is stored or audited.
let t: TestInstance
beforeAll(async () => {
  t = await getTestInstance()
})
afterAll(() => t.close())

const path = () => `/apps/${t.app.id}/sign-in-credentials`
const body = { provider: 'google', client_id: 'client.apps.example', client_secret: 'GOCSPX-x' }
const stored = () => t.countRows('app_provider_credentials')

it('the app secret and a user token are refused; nothing is stored', async () => {
  const user = await t.login('not-an-admin@example.com')
  const attempts = [
    { session: t.appSecret },
    { headers: { authorization: basicAuth(t.app.id, t.appSecret) } },
    { headers: { authorization: `Bearer ${t.appSecret}` } },
    { headers: { authorization: `Bearer ${user.token ?? ''}` } },
    { session: user.token ?? '' },
  ]
  for (const attempt of attempts)
    for (const method of ['GET', 'POST'] as const) {
      const res = await consoleRequest(t, path(), { ...attempt, method, body })
      expect(res.status).toBe(401)
      expect(res.body.code).toBe('UNAUTHORIZED')
    }
  expect(await stored()).toBe(0)
})

it('a revoked admin, a missing CSRF header and another origin are refused; nothing is stored', async () => {
  const { id, token } = await createAdminWithCli(t, 'leaver')
  const session = sessionFrom((await consoleRequest(t, '/login', { body: { token } })).headers)
  expect((await consoleRequest(t, path(), { session })).status).toBe(200)

  expect((await consoleRequest(t, path(), { session, body, csrf: false })).status).toBe(403)
  const foreign = await consoleRequest(t, path(), { session, body, origin: 'https://evil.example' })
  expect(foreign.status).toBe(403)
  expect(foreign.body.code).toBe('ORIGIN_NOT_ALLOWED')

  expect((await adminCli(t, 'admin', 'revoke', id)).code).toBe(0)
  expect((await consoleRequest(t, path(), { session, body })).status).toBe(401)
  expect(await stored()).toBe(0)
  expect(await t.countRows('admin_audit')).toBe(0)
})
