import { routes } from '@latchkey/protocol'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { getTestInstance, type TestInstance } from '../test/instance.ts'
import { appRequest } from './app-secrets.test-helper.ts'
import { createAppSecret, listAppSecrets, revokeAppSecret } from './app-secrets.ts'

let t: TestInstance
beforeAll(async () => {
  t = await getTestInstance()
})
afterAll(() => t.close())

it('a revoked app secret is refused at once, while the secret that replaced it works', async () => {
  const fresh = await createAppSecret(t.db, t.app.id, t.clock.now())
  expect((await appRequest(t, routes.appUsers)).status).toBe(200)
  expect((await appRequest(t, routes.appUsers, { secret: fresh.secret })).status).toBe(200)

  // Revoke the secret `apps create` printed (the app's first).
  const [creation] = await listAppSecrets(t.db, t.app.id)
  expect(creation?.id).not.toBe(fresh.id)
  expect(await revokeAppSecret(t.db, t.app.id, creation?.id ?? '', t.clock.now())).toBe(true)
  const refused = await appRequest(t, routes.appUsers)
  expect(refused.status).toBe(401)
  expect(refused.body.code).toBe('INVALID_APP_SECRET')
  expect((await appRequest(t, routes.appUsers, { secret: fresh.secret })).status).toBe(200)

  await revokeAppSecret(t.db, t.app.id, fresh.id, t.clock.now())
  expect((await appRequest(t, routes.appUsers, { secret: fresh.secret })).body.code).toBe(
    'INVALID_APP_SECRET',
  )
})
