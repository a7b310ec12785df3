import { routes } from '@latchkey/protocol'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { getTestInstance, type TestInstance } from '../test/instance.ts'

// The routes that release, replace or destroy key material (account
// deletion destroys the auth shares), or hand the enclave the provider access
// to a cloud recovery key, are exactly the `auth: 'enclave'` ones; key
// activity (read by the host) stays an ordinary user route.
let t: TestInstance
beforeAll(async () => {
  t = await getTestInstance()
})
afterAll(() => t.close())

it('the enclave routes are the key routes, all POST', () => {
  const enclave = t.server.routes.filter((d) => d.auth === 'enclave')
  expect(enclave.map((d) => d.path).sort()).toEqual(
    [
      routes.embeddedWalletsCreate,
      routes.embeddedWalletsAdd,
      routes.embeddedWalletsAuthShare,
      routes.embeddedWalletsRecovery,
      routes.embeddedWalletsSetRecovery,
      routes.recoveryOAuthAuthenticate,
      routes.usersDelete,
    ].sort(),
  )
  expect(enclave.every((d) => d.method === 'post' && d.app !== false)).toBe(true)
  const activity = t.server.routes.find((d) => d.path === routes.embeddedWalletsKeyActivity)
  expect(activity?.auth).toBe('user')
})
