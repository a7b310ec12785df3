import { routes } from '@latchkey/protocol'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { createAppSecret } from '../apps/app-secrets.ts'
import { getTestInstance, type TestInstance } from '../test/instance.ts'
import { hdBody } from '../test/wallets.ts'
import { consoleRequest, createAdminWithCli, sessionFrom } from './console.test-helper.ts'

let t: TestInstance
beforeAll(async () => {
  t = await getTestInstance()
})
afterAll(() => t.close())

it('secrets never in responses: no app secret or hash, admin token, share, session token', async () => {
  const { token: adminToken } = await createAdminWithCli(t)
  const login = await consoleRequest(t, '/login', { body: { token: adminToken } })
  const session = sessionFrom(login.headers) ?? ''
  const { secret: appSecret } = await createAppSecret(t.db, t.app.id)
  const auth = await t.login('secrets@example.com', { enclaveKey: t.enclaveKey })
  const walletBody = hdBody()
  const wallet = await t.enclaveRequest(routes.embeddedWalletsCreate, {
    token: auth.token ?? '',
    body: walletBody,
  })
  expect(wallet.status).toBe(200)
  const created = await consoleRequest(t, '/apps', {
    session,
    body: { name: 'Fresh', origins: ['https://fresh.example'] },
  })
  expect(created.status).toBe(201)
  const user = `/apps/${t.app.id}/users/${encodeURIComponent(auth.user.id)}`
  const answers = [
    login,
    created,
    await consoleRequest(t, '/me', { session }),
    await consoleRequest(t, '/apps', { session }),
    await consoleRequest(t, `/apps/${t.app.id}`, { session }),
    await consoleRequest(t, `/apps/${t.app.id}/users?q=secrets%40example.com`, { session }),
    await consoleRequest(t, user, { session }),
  ]
  const detail = answers.at(-1)?.body
  expect(detail.wallets).toHaveLength(1)
  expect(detail.sessions).toHaveLength(1)

  const stored = [
    ...(await t.db.selectFrom('apps').select('secret_hash as v').execute()),
    ...(await t.db.selectFrom('app_secrets').select('secret_hash as v').execute()),
    ...(await t.db.selectFrom('admin_credentials').select('secret_hash as v').execute()),
    ...(await t.db.selectFrom('console_sessions').select('id_hash as v').execute()),
    ...(await t.db.selectFrom('wallet_secrets').select('auth_share as v').execute()),
    ...(await t.db.selectFrom('wallet_secrets').select('recovery_ciphertext as v').execute()),
    ...(await t.db.selectFrom('refresh_tokens').select('token_hash as v').execute()),
  ].map((row) => String(row.v))
  const secrets = [
    t.appSecret,
    appSecret,
    adminToken,
    session,
    auth.token,
    auth.refresh_token ?? '',
    walletBody.auth_share,
  ].filter(Boolean)
  for (const res of answers) {
    const body = res.text
    for (const secret of [...secrets, ...stored]) expect(body).not.toContain(secret)
    expect(body).not.toMatch(/lk_sk_|lk_admin_|share|secret_hash/)
  }
})
