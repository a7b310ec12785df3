import { routes, TOTP_PERIOD_S } from '@latchkey/protocol'
import { generate } from 'otplib'
import type { TestEnclaveKey } from './enclave-key.ts'
import type { TestInstance } from './instance.ts'

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
