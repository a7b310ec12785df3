import { afterAll, beforeAll, expect, it } from 'vitest'
import { basicAuth } from '../apps/app-secrets.test-helper.ts'
import { getTestInstance, type TestInstance } from '../test/instance.ts'
import { adminCli, consoleRequest, createAdminWithCli, sessionFrom } from './console.test-helper.ts'

// Only a signed-in admin sets or removes an app's backup, captcha, funding and
// Farcaster signer credentials: the app secret — as a session, Basic or
// bearer —, a user's access token, a revoked admin's session, no CSRF header
// or another origin are refused; nothing is stored, deleted or audited.
let t: TestInstance
beforeAll(async () => {
  t = await getTestInstance()
})
afterAll(() => t.close())

const url = (suffix = '') => `/apps/${t.app.id}/sign-in-credentials${suffix}`
const CUSTODY_KEY = `0x${'cd'.repeat(32)}`
const changes = () =>
  [
    [url(), { provider: 'farcaster-signer', request_fid: '12345', custody_key: CUSTODY_KEY }],
    [url(), { provider: 'turnstile', secret_key: 'turnstile-secret-0123' }],
    [url('/delete'), { provider: 'moonpay' }],
  ] as const
const stored = () => t.countRows('app_provider_credentials')

beforeAll(async () => {
  // One credential to delete: what a refused removal must leave in place.
  await t.server.setAppProviderCredentials(t.app.id, {
    provider: 'moonpay',
    secret_key: 'sk_test_moonpay0123',
  })
})

it('the app secret and a user token are refused; nothing changes', async () => {
  const user = await t.login('not-an-admin@example.com')
  const attempts = [
    { session: t.appSecret },
    { headers: { authorization: basicAuth(t.app.id, t.appSecret) } },
    { headers: { authorization: `Bearer ${t.appSecret}` } },
    { headers: { authorization: `Bearer ${user.token ?? ''}` } },
    { session: user.token ?? '' },
  ]
  for (const attempt of attempts)
    for (const [path, body] of changes()) {
      const res = await consoleRequest(t, path, { ...attempt, body })
      expect(res.status).toBe(401)
      expect(res.body.code).toBe('UNAUTHORIZED')
    }
  expect(await stored()).toBe(1)
})

it('a revoked admin, a missing CSRF header and another origin are refused; nothing changes', async () => {
  const { id, token } = await createAdminWithCli(t, 'leaver')
  const session = sessionFrom((await consoleRequest(t, '/login', { body: { token } })).headers)
  for (const [path, body] of changes()) {
    expect((await consoleRequest(t, path, { session, body, csrf: false })).status).toBe(403)
    const foreign = await consoleRequest(t, path, { session, body, origin: 'https://evil.example' })
    expect(foreign.status).toBe(403)
    expect(foreign.body.code).toBe('ORIGIN_NOT_ALLOWED')
  }
  expect((await adminCli(t, 'admin', 'revoke', id)).code).toBe(0)
  for (const [path, body] of changes())
    expect((await consoleRequest(t, path, { session, body })).status).toBe(401)
  expect(await stored()).toBe(1)
  expect(await t.countRows('admin_audit')).toBe(0)
})
