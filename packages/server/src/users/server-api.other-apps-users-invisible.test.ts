import { routes } from '@latchkey/protocol'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { appRequest } from '../apps/app-secrets.test-helper.ts'
import { createAppSecret } from '../apps/app-secrets.ts'
import { getTestInstance, type TestInstance } from '../test/instance.ts'

let t: TestInstance
beforeAll(async () => {
  t = await getTestInstance()
})
afterAll(() => t.close())

it("an app's secret reads, finds, lists and deletes none of another app's users", async () => {
  const other = await t.createApp()
  const { secret } = await createAppSecret(t.db, other.id, t.clock.now())
  const { user } = await t.login('theirs@example.com')
  const as = { appId: other.id, secret }
  expect((await appRequest(t, routes.appUser(user.id), as)).status).toBe(404)
  expect((await appRequest(t, routes.appUserWallets(user.id), as)).status).toBe(404)
  const found = await appRequest(t, routes.appUserLookup, {
    ...as,
    body: { email: 'theirs@example.com' },
  })
  expect(found.body.code).toBe('USER_DOES_NOT_EXIST')
  expect((await appRequest(t, routes.appUsers, as)).body.data).toEqual([])
  const deleted = await appRequest(t, routes.appUserDelete(user.id), { ...as, body: {} })
  expect(deleted.body.code).toBe('USER_DOES_NOT_EXIST')
  // The user is still there for their own app.
  expect((await appRequest(t, routes.appUser(user.id))).status).toBe(200)
})
