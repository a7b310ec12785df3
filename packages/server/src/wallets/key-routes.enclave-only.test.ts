import { routes } from '@latchkey/protocol'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { getTestInstance, type TestInstance } from '../test/instance.ts'

// The routes that release, replace or destroy key material (account
// deletion destroys the auth shares), or hand the enclave the provider access
// to a cloud recovery key, and the MFA routes that read a secret, check a
// code or change factors, are exactly the `auth: 'enclave'` ones; key
// activity and the MFA status (read by the host) stay ordinary user routes.
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
      routes.mfaTotpInit,
      routes.mfaTotpEnroll,
      routes.mfaVerify,
      routes.mfaUnenroll,
    ].sort(),
  )
  expect(enclave.every((d) => d.method === 'post' && d.app !== false)).toBe(true)
  const activity = t.server.routes.find((d) => d.path === routes.embeddedWalletsKeyActivity)
  expect(activity?.auth).toBe('user')
  expect(t.server.routes.find((d) => d.path === routes.mfa)?.auth).toBe('user')
})

it('the MFA check guards the routes that release or replace key material, and factor changes', () => {
  const guarded = t.server.routes.filter((d) => d.mfa === true)
  expect(guarded.map((d) => d.path).sort()).toEqual(
    [
      routes.embeddedWalletsAuthShare,
      routes.embeddedWalletsRecovery,
      routes.embeddedWalletsSetRecovery,
      routes.recoveryOAuthAuthenticate,
      routes.usersDelete,
      routes.mfaTotpInit,
      routes.mfaTotpEnroll,
      routes.mfaUnenroll,
    ].sort(),
  )
  expect(guarded.every((d) => d.auth === 'enclave')).toBe(true)
})
