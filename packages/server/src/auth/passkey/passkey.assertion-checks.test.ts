import { routes } from '@latchkey/protocol'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { getTestInstance, TEST_ORIGIN, type TestInstance } from '../../test/instance.ts'
import {
  type CeremonyTamper,
  failureReason,
  PASSKEY_APP_SETTINGS,
  passkeyCreate,
  passkeyLogin,
  SoftwareAuthenticator,
} from './testing.ts'

// Security bar 24 (WebAuthn §7.1, §7.2): a ceremony response is checked for
// clientData type, challenge and origin, the rpIdHash, the UP and UV flags
// and (assertions) the signature; any one of them wrong is refused.
let t: TestInstance
let authenticator: SoftwareAuthenticator
beforeAll(async () => {
  t = await getTestInstance({ appSettings: PASSKEY_APP_SETTINGS })
  authenticator = new SoftwareAuthenticator()
  expect((await passkeyCreate(t, authenticator)).status).toBe(200)
})
afterAll(() => t.close())

const REFUSALS: [string, CeremonyTamper, string][] = [
  ['a clientData type of another ceremony', { type: 'webauthn.create' }, 'type'],
  [
    'another challenge in clientData',
    { challenge: Buffer.alloc(32, 1).toString('base64url') },
    'challenge',
  ],
  ['an origin the app does not allow', { origin: 'https://evil.test' }, 'origin'],
  ["another RP ID's hash", { rpId: 'evil.test' }, 'rp_id'],
  ['the user-present flag unset', { up: false }, 'user_presence'],
  ['the user-verified flag unset', { up: true, uv: false }, 'user_verification'],
  ['a corrupted signature', { signature: 'corrupt' }, 'signature'],
  ["a stranger's signature", { signature: 'other-key' }, 'signature'],
]

describe('passkey assertion', () => {
  it.each(REFUSALS)('with %s is refused', async (_, tamper, reason) => {
    const sessions = await t.countRows('sessions')
    const res = await passkeyLogin(t, authenticator, { tamper })
    expect(res).toMatchObject({ status: 400, body: { code: 'PASSKEY_VERIFICATION_FAILED' } })
    expect(failureReason(res)).toBe(reason)
    expect(await t.countRows('sessions')).toBe(sessions)
  })

  it("with another user's handle is refused", async () => {
    const res = await passkeyLogin(t, authenticator, {
      tamper: { userHandle: Buffer.alloc(32, 9).toString('base64url') },
    })
    expect(failureReason(res)).toBe('user_handle')
  })

  it('that is honest logs in (the same authenticator, after every refusal)', async () => {
    expect((await passkeyLogin(t, authenticator)).status).toBe(200)
  })

  it('never echoes client input in the error', async () => {
    const res = await passkeyLogin(t, authenticator, { tamper: { origin: 'https://evil.test' } })
    expect(JSON.stringify(res.body)).not.toContain('evil.test')
  })
})

describe('passkey registration', () => {
  const CREATE_REFUSALS: [string, CeremonyTamper, string][] = [
    ['a clientData type of another ceremony', { type: 'webauthn.get' }, 'type'],
    [
      'another challenge in clientData',
      { challenge: Buffer.alloc(32, 2).toString('base64url') },
      'challenge_unknown',
    ],
    ['an origin the app does not allow', { origin: 'https://evil.test' }, 'origin'],
    ["another RP ID's hash", { rpId: 'evil.test' }, 'rp_id'],
    ['the user-present flag unset', { up: false }, 'user_presence'],
    ['the user-verified flag unset', { up: true, uv: false }, 'user_verification'],
  ]

  it.each(CREATE_REFUSALS)('with %s is refused', async (_, tamper, reason) => {
    const users = await t.countRows('users')
    const res = await passkeyCreate(t, new SoftwareAuthenticator(), { tamper })
    expect(res).toMatchObject({ status: 400, body: { code: 'PASSKEY_VERIFICATION_FAILED' } })
    expect(failureReason(res)).toBe(reason)
    expect(await t.countRows('users')).toBe(users)
  })

  it('with a relying_party other than the challenge was issued for is refused', async () => {
    const init = await t.request(routes.passkeyRegisterInit, { body: {}, origin: TEST_ORIGIN })
    const res = await t.request(routes.passkeyRegister, {
      body: {
        relying_party: 'evil.test',
        authenticator_response: new SoftwareAuthenticator().create({
          rpId: init.body.relying_party,
          challenge: init.body.options.challenge,
          origin: TEST_ORIGIN,
        }),
      },
      origin: TEST_ORIGIN,
    })
    expect(failureReason(res)).toBe('relying_party_mismatch')
  })
})
