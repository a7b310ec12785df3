import { routes, TOTP_PERIOD_S } from '@latchkey/protocol'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { getTestInstance, type TestInstance } from '../test/instance.ts'
import { type MfaDevice, totpCode, userWithTotp } from '../test/mfa.ts'

// Security bar 7, issue 18: TOTP codes are checked against the server's
// clock only (30 s steps), with one step of drift either way; nothing the
// client sends moves the clock.
let t: TestInstance
let device: MfaDevice
let secret: string
beforeAll(async () => {
  t = await getTestInstance({ appSettings: { mfa_methods: ['totp'] } })
  ;({ device, secret } = await userWithTotp(t, 'clock@example.com'))
})
afterAll(() => t.close())

const STEP_MS = TOTP_PERIOD_S * 1000

const verify = (body: object) =>
  t.enclaveRequest(routes.mfaVerify, { token: device.token, body, enclaveKey: device.key })

/** Moves to the start of a step well after any step used so far. */
const freshStep = () => t.clock.advance(10 * STEP_MS - (t.clock.now() % STEP_MS))

it('the previous and the next step’s codes pass (one step of drift either way)', async () => {
  freshStep()
  expect(
    (await verify({ method: 'totp', code: await totpCode(secret, t.clock.now(), -1) })).status,
  ).toBe(200)
  freshStep()
  expect(
    (await verify({ method: 'totp', code: await totpCode(secret, t.clock.now(), 1) })).status,
  ).toBe(200)
})

it('codes two steps away, either way, are refused', async () => {
  for (const offset of [-2, 2, -3, 3]) {
    freshStep()
    const res = await verify({
      method: 'totp',
      code: await totpCode(secret, t.clock.now(), offset),
    })
    expect({ offset, ...res }).toMatchObject({
      offset,
      status: 422,
      body: { code: 'MFA_INVALID_CODE' },
    })
  }
  // Wrong codes count: clear the window before the next test.
  await t.db.deleteFrom('mfa_attempts').execute()
})

it('a code passes until the last instant of the step after its own, and not a millisecond later', async () => {
  freshStep()
  const start = t.clock.now()
  const code = await totpCode(secret, start)
  t.clock.set(start + 2 * STEP_MS - 1)
  expect((await verify({ method: 'totp', code })).status).toBe(200)
  freshStep()
  const later = t.clock.now()
  const old = await totpCode(secret, later)
  t.clock.set(later + 2 * STEP_MS)
  expect(await verify({ method: 'totp', code: old })).toMatchObject({
    status: 422,
    body: { code: 'MFA_INVALID_CODE' },
  })
  await t.db.deleteFrom('mfa_attempts').execute()
})

it('a time the client sends is ignored: a code for the client’s clock fails against the server’s', async () => {
  freshStep()
  const clientTime = t.clock.now() + 10 * STEP_MS
  const res = await verify({
    method: 'totp',
    code: await totpCode(secret, clientTime),
    epoch: Math.floor(clientTime / 1000),
    timestamp: clientTime,
    time: clientTime,
  })
  expect(res).toMatchObject({ status: 422, body: { code: 'MFA_INVALID_CODE' } })
  await t.db.deleteFrom('mfa_attempts').execute()
})
