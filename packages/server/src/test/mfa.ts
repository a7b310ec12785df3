import { routes, TOTP_PERIOD_S } from '@latchkey/protocol'
import { generate } from 'otplib'
import { DevOutboxSender } from '../adapters/sms/dev-outbox.ts'
import {
  type CeremonyTamper,
  passkeyCreate,
  SoftwareAuthenticator,
} from '../auth/passkey/testing.ts'
import type { TestEnclaveKey } from './enclave-key.ts'
import { TEST_ORIGIN, type TestInstance, type TestResponse } from './instance.ts'

/**
 * The authenticator app's code for `secret` at `nowMs` (the test clock's
 * time), `stepOffset` steps of 30 s away — what the user would type.
 *
 * @example
 * const code = await totpCode(secret, t.clock.now())
 */
export function totpCode(secret: string, nowMs: number, stepOffset = 0): Promise<string> {
  return generate({ secret, epoch: Math.floor(nowMs / 1000) + stepOffset * TOTP_PERIOD_S })
}

/** A wrong code for `secret` now: never the code of the current step or its neighbours. */
export async function wrongTotpCode(secret: string, nowMs: number): Promise<string> {
  const valid = await Promise.all([-1, 0, 1].map((offset) => totpCode(secret, nowMs, offset)))
  for (let n = 0; ; n++) {
    const guess = String(n).padStart(6, '0')
    if (!valid.includes(guess)) return guess
  }
}

/** A signed-in device: its tokens and its enclave key. */
export interface MfaDevice {
  token: string
  refreshToken: string
  key: TestEnclaveKey
  userId: string
  sessionId: string
}

/**
 * A user with an authenticator app enrolled through the real routes (init,
 * then a code), on an app whose `mfa_methods` include 'totp'. The
 * confirmation verified this device's session; the clock then moves past the
 * code's step so the next test code is fresh.
 *
 * @example
 * const { device, secret } = await userWithTotp(t, 'a@b.co')
 */
export async function userWithTotp(
  t: TestInstance,
  email: string,
  key: TestEnclaveKey = t.enclaveKey,
): Promise<{ device: MfaDevice; secret: string }> {
  const auth = await t.login(email, { enclaveKey: key })
  const token = auth.token ?? ''
  const device: MfaDevice = {
    token,
    refreshToken: auth.refresh_token ?? '',
    key,
    userId: auth.user.id,
    sessionId: sessionIdOf(token),
  }
  const init = await t.enclaveRequest(routes.mfaTotpInit, { token, body: {}, enclaveKey: key })
  if (init.status !== 200) throw new Error(`totp init failed: ${JSON.stringify(init.body)}`)
  const secret: string = init.body.secret
  const code = await totpCode(secret, t.clock.now())
  const enroll = await t.enclaveRequest(routes.mfaTotpEnroll, {
    token,
    body: { code },
    enclaveKey: key,
  })
  if (enroll.status !== 200) throw new Error(`totp enroll failed: ${JSON.stringify(enroll.body)}`)
  t.clock.advance(TOTP_PERIOD_S * 1000)
  return { device, secret }
}

/** Logs the same user in again on `key` (a new session), e.g. another tab or device. */
export async function anotherSession(
  t: TestInstance,
  email: string,
  key: TestEnclaveKey,
): Promise<MfaDevice> {
  const auth = await t.login(email, { enclaveKey: key })
  const token = auth.token ?? ''
  return {
    token,
    refreshToken: auth.refresh_token ?? '',
    key,
    userId: auth.user.id,
    sessionId: sessionIdOf(token),
  }
}

/** Verifies MFA for `device` with the current code (moving the clock one step first, so it is unused). */
export async function verifyTotp(t: TestInstance, device: MfaDevice, secret: string) {
  t.clock.advance(TOTP_PERIOD_S * 1000)
  return t.enclaveRequest(routes.mfaVerify, {
    token: device.token,
    body: { method: 'totp', code: await totpCode(secret, t.clock.now()) },
    enclaveKey: device.key,
  })
}

/** The access token's `sid`: the session it belongs to. */
export const sessionIdOf = (token: string): string =>
  JSON.parse(Buffer.from(token.split('.')[1] ?? '', 'base64url').toString('utf8')).sid

/** Calls an MFA (enclave) route as `device`'s enclave does. */
export const mfaCall = (
  t: TestInstance,
  device: MfaDevice,
  path: string,
  body: object,
): Promise<TestResponse> =>
  t.enclaveRequest(path, { token: device.token, body, enclaveKey: device.key })

/** The SMS messages the dev outbox got for `phone` (E.164), newest first. */
export function smsTo(t: TestInstance, phone: string) {
  const outbox = t.server.services.sms
  if (!(outbox instanceof DevOutboxSender)) throw new Error('SMS do not go to the dev outbox')
  return outbox.list(phone)
}

/** The latest code the dev outbox got for `phone`. */
export function lastSmsCode(t: TestInstance, phone: string): string {
  const code = smsTo(t, phone)[0]?.code
  if (!code) throw new Error(`No code was sent to ${phone}`)
  return code
}

/**
 * A user with the SMS factor on `phone`, enrolled through the real routes
 * (a code to the phone, then that code), on an app whose `mfa_methods`
 * include 'sms'. The confirmation verified this device's session; the clock
 * then moves past the resend cooldown so the next code can go.
 *
 * @example
 * const device = await userWithSms(t, 'a@b.co', '+14155550100')
 */
export async function userWithSms(
  t: TestInstance,
  email: string,
  phone: string,
  key: TestEnclaveKey = t.enclaveKey,
): Promise<MfaDevice> {
  const device = await anotherSession(t, email, key)
  const init = await mfaCall(t, device, routes.mfaSmsInit, {
    action: 'enroll',
    phone_number: phone,
  })
  if (init.status !== 200) throw new Error(`sms init failed: ${JSON.stringify(init.body)}`)
  const code = lastSmsCode(t, phone)
  const enroll = await mfaCall(t, device, routes.mfaSmsEnroll, { phone_number: phone, code })
  if (enroll.status !== 200) throw new Error(`sms enroll failed: ${JSON.stringify(enroll.body)}`)
  t.clock.advance(31_000)
  return device
}

/** Sends a verification code to `device`'s enrolled phone and verifies with it. */
export async function verifySms(t: TestInstance, device: MfaDevice, phone: string) {
  const init = await mfaCall(t, device, routes.mfaSmsInit, { action: 'verify' })
  if (init.status !== 200) throw new Error(`sms init failed: ${JSON.stringify(init.body)}`)
  t.clock.advance(31_000)
  return mfaCall(t, device, routes.mfaVerify, { method: 'sms', code: lastSmsCode(t, phone) })
}

/** Links a new software passkey to `device`'s user (from the host page, as the modal does). */
export async function linkPasskey(
  t: TestInstance,
  device: MfaDevice,
): Promise<SoftwareAuthenticator> {
  const authenticator = new SoftwareAuthenticator()
  const res = await passkeyCreate(t, authenticator, { link: true, token: device.token })
  if (res.status !== 200) throw new Error(`passkey link failed: ${JSON.stringify(res.body)}`)
  return authenticator
}

/**
 * A user with one linked passkey enrolled as their MFA passkey, through the
 * real routes, on an app with passkey login and `mfa_methods` including
 * 'passkey'. Enabling a passkey does not verify the session.
 *
 * @example
 * const { device, authenticator } = await userWithMfaPasskey(t, 'a@b.co')
 */
export async function userWithMfaPasskey(
  t: TestInstance,
  email: string,
  key: TestEnclaveKey = t.enclaveKey,
): Promise<{ device: MfaDevice; authenticator: SoftwareAuthenticator }> {
  const device = await anotherSession(t, email, key)
  const authenticator = await linkPasskey(t, device)
  const enroll = await mfaCall(t, device, routes.mfaPasskeyEnroll, {
    credential_ids: [authenticator.id],
  })
  if (enroll.status !== 200)
    throw new Error(`passkey enroll failed: ${JSON.stringify(enroll.body)}`)
  return { device, authenticator }
}

/** mfa/passkey/init → the authenticator's assertion → mfa/verify, as the enclave and the host page do. */
export async function verifyPasskey(
  t: TestInstance,
  device: MfaDevice,
  authenticator: SoftwareAuthenticator,
  tamper: CeremonyTamper = {},
): Promise<TestResponse> {
  const init = await mfaCall(t, device, routes.mfaPasskeyInit, {})
  if (init.status !== 200) throw new Error(`passkey init failed: ${JSON.stringify(init.body)}`)
  const { relying_party, options } = init.body
  const authenticator_response = authenticator.get(
    { rpId: relying_party, challenge: options.challenge, origin: TEST_ORIGIN },
    tamper,
  )
  return mfaCall(t, device, routes.mfaVerify, {
    method: 'passkey',
    relying_party,
    authenticator_response,
  })
}
