import { routes } from '@latchkey/protocol'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { getTestInstance, type TestInstance } from '../test/instance.ts'

// The routes that release, replace or destroy key material (account
// deletion destroys the auth shares), or hand the enclave the provider access
// to a cloud recovery key, and the MFA routes that read a secret, send or
// check a code or change factors, are exactly the `auth: 'enclave'` ones; key
// activity, the MFA status (read by the host) and ending the MFA window stay
// ordinary user routes.
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
      routes.mfaSmsInit,
      routes.mfaSmsEnroll,
      routes.mfaPasskeyInit,
      routes.mfaPasskeyEnroll,
      routes.mfaVerify,
      routes.mfaUnenroll,
      // Binds a signer key the enclave made (docs/farcaster-signer.md): asked for by the enclave only.
      routes.farcasterSignerInit,
      // Hands the server a device share sealed to its delegation key (docs/delegated-actions.md).
      routes.embeddedWalletsDelegate,
    ].sort(),
  )
  expect(enclave.every((d) => d.method === 'post' && d.app !== false)).toBe(true)
  const activity = t.server.routes.find((d) => d.path === routes.embeddedWalletsKeyActivity)
  expect(activity?.auth).toBe('user')
  expect(t.server.routes.find((d) => d.path === routes.mfa)?.auth).toBe('user')
  // Ending this session's window only lowers its privileges (docs/mfa.md "Clear").
  expect(t.server.routes.find((d) => d.path === routes.mfaClear)?.auth).toBe('user')
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
      routes.mfaSmsEnroll,
      routes.mfaPasskeyEnroll,
      routes.mfaUnenroll,
      routes.embeddedWalletsDelegate,
    ].sort(),
  )
  expect(guarded.every((d) => d.auth === 'enclave')).toBe(true)
  // Guarded for some bodies only: a code to a new phone (an enrollment), not
  // to the enrolled one (how a verification starts).
  const byBody = t.server.routes.filter((d) => typeof d.mfa === 'function')
  expect(byBody.map((d) => d.path)).toEqual([routes.mfaSmsInit])
  const guard = byBody[0]?.mfa
  if (typeof guard !== 'function') throw new Error('mfa/sms/init has no body guard')
  expect(byBody[0]?.auth).toBe('enclave')
  expect(guard({ action: 'enroll', phone_number: '+14155550100' })).toBe(true)
  expect(guard({ action: 'verify' })).toBe(false)
})
