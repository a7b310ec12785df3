import { routes } from '@latchkey/protocol'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { getTestInstance, type TestInstance } from '../../test/instance.ts'

// The public config shows a provider only when it is switched on AND has a
// client; the client secret is sealed at rest (security bar 50).
let t: TestInstance
beforeAll(async () => {
  t = await getTestInstance({ appSettings: { login_methods: { google: true, discord: true } } })
})
afterAll(() => t.close())

it('a switched-on provider without credentials is reported off', async () => {
  const res = await t.request(routes.appConfig(t.app.id))
  expect(res.body.login_methods).toMatchObject({ google: false, discord: false, github: false })
})

it('with credentials it is on, and the secret is stored sealed', async () => {
  await t.server.setAppProviderCredentials(t.app.id, {
    provider: 'discord',
    client_id: '1234567890',
    client_secret: 'discord-client-secret-value',
  })
  const res = await t.request(routes.appConfig(t.app.id))
  expect(res.body.login_methods).toMatchObject({ discord: true, google: false })
  const row = await t.db
    .selectFrom('app_provider_credentials')
    .selectAll()
    .where('provider', '=', 'discord')
    .executeTakeFirstOrThrow()
  expect(row.client_secret).not.toContain('discord-client-secret-value')
  // Unsealing is exercised by every login test (the exchange sends the secret).
})
