import { SIGN_IN_ISSUED_AT_SKEW_MS } from '@latchkey/protocol'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { getTestInstance, type TestInstance } from '../../test/instance.ts'
import { failureReason, siweSignIn, WALLET_APP_SETTINGS } from './testing.ts'

// Security bar 18 (EIP-4361): an expiration time in the past fails (even
// without not-before), a future not-before fails, and issued-at must be
// within ±SIGN_IN_ISSUED_AT_SKEW_MS of the server's clock.
let t: TestInstance
beforeAll(async () => {
  t = await getTestInstance({ appSettings: WALLET_APP_SETTINGS })
})
afterAll(() => t.close())

const newAccount = () => privateKeyToAccount(generatePrivateKey())
const at = (offsetMs: number) => new Date(t.clock.now() + offsetMs)

describe('SIWE time window', () => {
  it('refuses an expiration time in the past or now, without not-before', async () => {
    for (const offset of [-60_000, -1, 0]) {
      const res = await siweSignIn(t, newAccount(), { fields: { expirationTime: at(offset) } })
      expect(failureReason(res)).toBe('expired')
    }
    const future = await siweSignIn(t, newAccount(), { fields: { expirationTime: at(1_000) } })
    expect(future.status).toBe(200)
  })

  it('refuses a not-before in the future', async () => {
    const res = await siweSignIn(t, newAccount(), { fields: { notBefore: at(1_000) } })
    expect(failureReason(res)).toBe('not_yet_valid')
    const reached = await siweSignIn(t, newAccount(), { fields: { notBefore: at(0) } })
    expect(reached.status).toBe(200)
  })

  it('refuses an expired message even when its not-before has passed', async () => {
    const res = await siweSignIn(t, newAccount(), {
      fields: { notBefore: at(-120_000), expirationTime: at(-60_000) },
    })
    expect(failureReason(res)).toBe('expired')
  })

  it('bounds issued-at to the skew either way', async () => {
    for (const offset of [-SIGN_IN_ISSUED_AT_SKEW_MS - 1_000, SIGN_IN_ISSUED_AT_SKEW_MS + 1_000]) {
      const res = await siweSignIn(t, newAccount(), { fields: { issuedAt: at(offset) } })
      expect(failureReason(res)).toBe('issued_at_out_of_window')
    }
    for (const offset of [-SIGN_IN_ISSUED_AT_SKEW_MS, SIGN_IN_ISSUED_AT_SKEW_MS]) {
      const res = await siweSignIn(t, newAccount(), { fields: { issuedAt: at(offset) } })
      expect(res.status).toBe(200)
    }
  })
})
