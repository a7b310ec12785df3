import { SIGN_IN_NONCE_TTL_MS } from '@latchkey/protocol'
import { base64 } from '@scure/base'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { getTestInstance, type TestInstance } from '../../test/instance.ts'
import { failureReason, WALLET_APP_SETTINGS } from '../siwe/testing.ts'
import { postSiws, signInText, siwsInit, solanaKeypair } from './testing.ts'

// Security bar 17 for SIWS: the nonce is single use and expiring; two
// concurrent verifications of one nonce yield exactly one session.
let t: TestInstance
beforeAll(async () => {
  t = await getTestInstance({ appSettings: WALLET_APP_SETTINGS })
})
afterAll(() => t.close())

async function signed(appId?: string) {
  const keypair = solanaKeypair()
  const input = await siwsInit(t, keypair.address, appId ? { appId } : {})
  const message = signInText(input)
  return { message, signature: base64.encode(keypair.sign(new TextEncoder().encode(message))) }
}

describe('SIWS nonce', () => {
  it('is spent by a login: a replay fails', async () => {
    const body = await signed()
    expect((await postSiws(t, body)).status).toBe(200)
    expect(failureReason(await postSiws(t, body))).toBe('nonce_used')
  })

  it('two concurrent submissions of one nonce yield exactly one session', async () => {
    const body = await signed()
    const sessions = await t.countRows('sessions')
    const results = await Promise.all([postSiws(t, body), postSiws(t, body)])
    expect(results.map((r) => r.status).sort()).toEqual([200, 400])
    expect(await t.countRows('sessions')).toBe(sessions + 1)
  })

  it('expires with the sign-in input', async () => {
    const body = await signed()
    t.clock.advance(SIGN_IN_NONCE_TTL_MS)
    expect(failureReason(await postSiws(t, body))).toBe('nonce_expired')
  })

  it("is the issuing app's only", async () => {
    const other = await t.createApp(WALLET_APP_SETTINGS)
    const body = await signed(other.id)
    expect(failureReason(await postSiws(t, body))).toBe('nonce_unknown')
    expect((await postSiws(t, body, { appId: other.id })).status).toBe(200)
  })
})
