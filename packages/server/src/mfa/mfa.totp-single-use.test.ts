import { routes, TOTP_PERIOD_S } from '@latchkey/protocol'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { createTestEnclaveKey } from '../test/enclave-key.ts'
import { getTestInstance, type TestInstance } from '../test/instance.ts'
import { anotherSession, type MfaDevice, totpCode, userWithTotp } from '../test/mfa.ts'
import { totpStepAt } from './totp.ts'

// Security bars 3 and 7, issue 18: a TOTP code is accepted once. A replay in
// the same 30 s step is refused — from the same session, another session, or
// a concurrent double submit — and so is a code of an earlier step once a
// later step's code was used.
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

const lastUsedStep = async (userId: string) =>
  Number(
    (
      await t.db
        .selectFrom('mfa_factors')
        .select('last_used_step')
        .where('user_id', '=', userId)
        .executeTakeFirstOrThrow()
    ).last_used_step,
  )

it('a code works once: its replay in the same step is refused, from any session', async () => {
  const email = 'replay@example.com'
  const { device, secret } = await userWithTotp(t, email)
  const other = await anotherSession(t, email, await createTestEnclaveKey())
  t.clock.advance(TOTP_PERIOD_S * 1000)
  const code = await totpCode(secret, t.clock.now())
  expect((await verify(device, code)).status).toBe(200)
  expect(await lastUsedStep(device.userId)).toBe(totpStepAt(t.clock.now()))
  // Later in the same step: the same code again, here and from another session.
  t.clock.advance(TOTP_PERIOD_S * 1000 - 1 - (t.clock.now() % (TOTP_PERIOD_S * 1000)))
  expect(await totpCode(secret, t.clock.now())).toBe(code)
  expect(await verify(device, code)).toMatchObject({
    status: 422,
    body: { code: 'MFA_INVALID_CODE' },
  })
  expect(await verify(other, code)).toMatchObject({
    status: 422,
    body: { code: 'MFA_INVALID_CODE' },
  })
  // The next step's code works.
  t.clock.advance(1)
  expect((await verify(other, await totpCode(secret, t.clock.now()))).status).toBe(200)
})

it('the code used to confirm the setup cannot then verify', async () => {
  const key = await createTestEnclaveKey()
  const auth = await t.login('setup-replay@example.com', { enclaveKey: key })
  const device: MfaDevice = {
    token: auth.token ?? '',
    refreshToken: '',
    key,
    userId: auth.user.id,
    sessionId: '',
  }
  const init = await t.enclaveRequest(routes.mfaTotpInit, {
    token: device.token,
    body: {},
    enclaveKey: key,
  })
  const code = await totpCode(init.body.secret, t.clock.now())
  const enroll = await t.enclaveRequest(routes.mfaTotpEnroll, {
    token: device.token,
    body: { code },
    enclaveKey: key,
  })
  expect(enroll.status).toBe(200)
  expect(await verify(device, code)).toMatchObject({
    status: 422,
    body: { code: 'MFA_INVALID_CODE' },
  })
})

it('a code of an earlier step fails once a later step’s code was used', async () => {
  const { device, secret } = await userWithTotp(t, 'earlier@example.com')
  t.clock.advance(TOTP_PERIOD_S * 1000)
  const now = t.clock.now()
  // The next step's code (the authenticator's clock runs ahead), then the current one.
  const ahead = await totpCode(secret, now, 1)
  const current = await totpCode(secret, now)
  expect((await verify(device, ahead)).status).toBe(200)
  expect(await lastUsedStep(device.userId)).toBe(totpStepAt(now) + 1)
  expect(await verify(device, current)).toMatchObject({
    status: 422,
    body: { code: 'MFA_INVALID_CODE' },
  })
  // One step later the clock's code is the one already used; the step after that passes.
  t.clock.advance(TOTP_PERIOD_S * 1000)
  expect(await verify(device, await totpCode(secret, t.clock.now()))).toMatchObject({
    status: 422,
    body: { code: 'MFA_INVALID_CODE' },
  })
  t.clock.advance(TOTP_PERIOD_S * 1000)
  expect((await verify(device, await totpCode(secret, t.clock.now()))).status).toBe(200)
})

it('a concurrent double submit of one code verifies once', async () => {
  const email = 'double@example.com'
  const { device, secret } = await userWithTotp(t, email)
  const other = await anotherSession(t, email, await createTestEnclaveKey())
  t.clock.advance(TOTP_PERIOD_S * 1000)
  const code = await totpCode(secret, t.clock.now())
  const results = await Promise.all(
    Array.from({ length: 4 }, (_, i) => verify(i % 2 ? other : device, code)),
  )
  expect(results.filter((r) => r.status === 200)).toHaveLength(1)
  expect(results.filter((r) => r.body.code === 'MFA_INVALID_CODE')).toHaveLength(3)
  expect(await lastUsedStep(device.userId)).toBe(totpStepAt(t.clock.now()))
})
