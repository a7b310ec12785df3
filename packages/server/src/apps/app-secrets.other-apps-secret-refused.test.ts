import { routes } from '@latchkey/protocol'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { getTestInstance, type TestInstance } from '../test/instance.ts'
import { appRequest, basicAuth } from './app-secrets.test-helper.ts'
import { createAppSecret } from './app-secrets.ts'

let t: TestInstance
beforeAll(async () => {
  t = await getTestInstance()
})
afterAll(() => t.close())

it("another app's secret does not open this app, under either app id", async () => {
  const other = await t.createApp()
  const { secret: otherSecret } = await createAppSecret(t.db, other.id, t.clock.now())
  // Our app id with the other app's secret.
  const mixed = await appRequest(t, routes.appUsers, { secret: otherSecret })
  expect(mixed.status).toBe(401)
  expect(mixed.body.code).toBe('INVALID_APP_SECRET')
  // The other app's credentials, but our app id in the header: refused before the secret counts.
  const header = await t.request(routes.appUsers, {
    headers: { authorization: basicAuth(other.id, otherSecret) },
  })
  expect(header.status).toBe(401)
  expect(header.body.code).toBe('APP_AUTH_REQUIRED')
  // The other app's own credentials answer about the other app only.
  const own = await appRequest(t, routes.appUsers, { appId: other.id, secret: otherSecret })
  expect(own.status).toBe(200)
})
