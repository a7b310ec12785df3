import {
  MFA_ATTEMPT_WINDOW_MS,
  MFA_MAX_CODE_ATTEMPTS,
  routes,
  TOTP_PERIOD_S,
} from '@latchkey/protocol'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTestEnclaveKey } from '../test/enclave-key.ts'
import { getTestInstance, type TestInstance } from '../test/instance.ts'
import {
  anotherSession,
  type MfaDevice,
  totpCode,
  userWithTotp,
  wrongTotpCode,
} from '../test/mfa.ts'

// Security bar 5, issue 18: wrong MFA codes are capped per user —
// MFA_MAX_CODE_ATTEMPTS codes per MFA_ATTEMPT_WINDOW_MS, counted before the
// code is compared — and the cap holds under a concurrent burst of 20 wrong
// codes, on SQLite and PostgreSQL alike.
let t: TestInstance
beforeAll(async () => {
  t = await getTestInstance({ appSettings: { mfa_methods: ['totp'] } })
})
afterAll(() => t.close())

const verify = (device: MfaDevice, code: string) =>
  t.enclaveRequest(routes.mfaVerify, {
    token: device.token,
    body: { method: 'totp', code },
    enclaveKey: device.key,
  })

const attemptsOf = async (userId: string) =>
  (
    await t.db
      .selectFrom('mfa_attempts')
      .select('attempts')
      .where('user_id', '=', userId)
      .executeTakeFirst()
  )?.attempts

describe('per user', () => {
  it(`${MFA_MAX_CODE_ATTEMPTS} wrong codes lock MFA, even for the right code, until the window ends`, async () => {
    const { device, secret } = await userWithTotp(t, 'locked@example.com')
    const windowStart = t.clock.now()
    for (let i = 0; i < MFA_MAX_CODE_ATTEMPTS; i++) {
      const res = await verify(device, await wrongTotpCode(secret, t.clock.now()))
      expect(res).toMatchObject({ status: 422, body: { code: 'MFA_INVALID_CODE' } })
    }
    const right = await verify(device, await totpCode(secret, t.clock.now()))
    expect(right).toMatchObject({ status: 429, body: { code: 'MFA_MAX_ATTEMPTS' } })
    expect(right.body.retry_after).toBe(MFA_ATTEMPT_WINDOW_MS / 1000)
    expect(right.headers.get('retry-after')).toBe(String(MFA_ATTEMPT_WINDOW_MS / 1000))
    expect(right.body.message).toBe(
      'You have exceeded the maximum number of attempts. Please close this window and try again in 15 minutes.',
    )

    // Just before the window ends: still locked. At its end: the right code passes.
    t.clock.set(windowStart + MFA_ATTEMPT_WINDOW_MS - 1)
    const still = await verify(device, await totpCode(secret, t.clock.now()))
    expect(still).toMatchObject({ status: 429, body: { code: 'MFA_MAX_ATTEMPTS', retry_after: 1 } })
    t.clock.set(windowStart + MFA_ATTEMPT_WINDOW_MS)
    expect((await verify(device, await totpCode(secret, t.clock.now()))).status).toBe(200)
  })

  it('the cap is the user’s, not the session’s: another session is locked too; other users are not', async () => {
    const email = 'two-tabs@example.com'
    const { device, secret } = await userWithTotp(t, email)
    const other = await anotherSession(t, email, await createTestEnclaveKey())
    for (let i = 0; i < MFA_MAX_CODE_ATTEMPTS; i++)
      await verify(i % 2 ? other : device, await wrongTotpCode(secret, t.clock.now()))
    const res = await verify(other, await totpCode(secret, t.clock.now()))
    expect(res).toMatchObject({ status: 429, body: { code: 'MFA_MAX_ATTEMPTS' } })

    const bystander = await userWithTotp(t, 'bystander@example.com')
    t.clock.advance(TOTP_PERIOD_S * 1000)
    const fine = await verify(bystander.device, await totpCode(bystander.secret, t.clock.now()))
    expect(fine.status).toBe(200)
  })

  it('a right code clears the count: a typo or two never add up to a lock', async () => {
    const { device, secret } = await userWithTotp(t, 'typos@example.com')
    for (let round = 0; round < 3; round++) {
      for (let i = 0; i < MFA_MAX_CODE_ATTEMPTS - 1; i++)
        expect((await verify(device, await wrongTotpCode(secret, t.clock.now()))).status).toBe(422)
      t.clock.advance(TOTP_PERIOD_S * 1000)
      expect((await verify(device, await totpCode(secret, t.clock.now()))).status).toBe(200)
      expect(await attemptsOf(device.userId)).toBeUndefined()
    }
  })

  it('setup codes count against the same cap', async () => {
    const key = await createTestEnclaveKey()
    const auth = await t.login('setup-typos@example.com', { enclaveKey: key })
    const call = (path: string, body: object) =>
      t.enclaveRequest(path, { token: auth.token ?? '', body, enclaveKey: key })
    const { secret } = (await call(routes.mfaTotpInit, {})).body
    for (let i = 0; i < MFA_MAX_CODE_ATTEMPTS; i++)
      await call(routes.mfaTotpEnroll, { code: await wrongTotpCode(secret, t.clock.now()) })
    const right = await call(routes.mfaTotpEnroll, { code: await totpCode(secret, t.clock.now()) })
    expect(right).toMatchObject({ status: 429, body: { code: 'MFA_MAX_ATTEMPTS' } })
  })
})

describe('under a concurrent burst', () => {
  it(`20 parallel wrong codes: exactly ${MFA_MAX_CODE_ATTEMPTS} are compared, the rest refused, and the lock holds`, async () => {
    const { device, secret } = await userWithTotp(t, 'burst@example.com')
    const wrong = await wrongTotpCode(secret, t.clock.now())
    const results = await Promise.all(Array.from({ length: 20 }, () => verify(device, wrong)))
    const codes = results.map((r) => r.body.code)
    expect(codes.filter((c) => c === 'MFA_INVALID_CODE')).toHaveLength(MFA_MAX_CODE_ATTEMPTS)
    expect(codes.filter((c) => c === 'MFA_MAX_ATTEMPTS')).toHaveLength(20 - MFA_MAX_CODE_ATTEMPTS)
    expect(await attemptsOf(device.userId)).toBe(MFA_MAX_CODE_ATTEMPTS)
    const right = await verify(device, await totpCode(secret, t.clock.now()))
    expect(right.body.code).toBe('MFA_MAX_ATTEMPTS')
  })

  it('a burst from several sessions of the user at once is capped the same', async () => {
    const email = 'burst-sessions@example.com'
    const { device, secret } = await userWithTotp(t, email)
    const others = [device]
    for (let i = 0; i < 3; i++)
      others.push(await anotherSession(t, email, await createTestEnclaveKey()))
    const wrong = await wrongTotpCode(secret, t.clock.now())
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, i) => verify(others[i % others.length] as MfaDevice, wrong)),
    )
    expect(results.filter((r) => r.body.code === 'MFA_INVALID_CODE')).toHaveLength(
      MFA_MAX_CODE_ATTEMPTS,
    )
    expect(results.filter((r) => r.status === 429)).toHaveLength(20 - MFA_MAX_CODE_ATTEMPTS)
  })
})
