import { SIGN_IN_NONCE_TTL_MS } from '@latchkey/protocol'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { getTestInstance, type TestInstance } from '../../test/instance.ts'
import { failureReason, postSiwe, siweMessage, siweNonce, WALLET_APP_SETTINGS } from './testing.ts'

// Security bar 17 (EIP-4361): the nonce is server-issued (128 bits), bound
// to app and address, expiring and single use; two concurrent
// verifications of one nonce yield exactly one session.
let t: TestInstance
beforeAll(async () => {
  t = await getTestInstance({ appSettings: WALLET_APP_SETTINGS })
})
afterAll(() => t.close())

const newAccount = () => privateKeyToAccount(generatePrivateKey())

async function signed(address = newAccount()) {
  const nonce = await siweNonce(t, address.address)
  const message = siweMessage(t, address.address, nonce)
  return { nonce, message, signature: await address.signMessage({ message }) }
}

describe('SIWE nonce', () => {
  it('is spent by a login: the same message and signature can not log in again', async () => {
    const body = await signed()
    expect((await postSiwe(t, body)).status).toBe(200)
    const replay = await postSiwe(t, body)
    expect(replay).toMatchObject({ status: 400, body: { code: 'WALLET_LOGIN_FAILED' } })
    expect(failureReason(replay)).toBe('nonce_used')
  })

  it('two concurrent submissions of one nonce yield exactly one session', async () => {
    const body = await signed()
    const sessions = await t.countRows('sessions')
    const results = await Promise.all([postSiwe(t, body), postSiwe(t, body)])
    expect(results.map((r) => r.status).sort()).toEqual([200, 400])
    expect(failureReason(results.find((r) => r.status === 400) as never)).toBe('nonce_used')
    expect(await t.countRows('sessions')).toBe(sessions + 1)
  })

  it('is not spent by a refused signature', async () => {
    const account = newAccount()
    const nonce = await siweNonce(t, account.address)
    const message = siweMessage(t, account.address, nonce)
    const forged = await newAccount().signMessage({ message })
    expect(failureReason(await postSiwe(t, { message, signature: forged }))).toBe(
      'invalid_signature',
    )
    const signature = await account.signMessage({ message })
    expect((await postSiwe(t, { message, signature })).status).toBe(200)
  })

  it('must have been issued by this server, to this app, for this address', async () => {
    const account = newAccount()
    const made = siweMessage(t, account.address, 'a1b2c3d4e5f6a7b8')
    expect(
      failureReason(
        await postSiwe(t, {
          message: made,
          signature: await account.signMessage({ message: made }),
        }),
      ),
    ).toBe('nonce_unknown')

    const otherAddress = await siweNonce(t, newAccount().address)
    const forOther = siweMessage(t, account.address, otherAddress)
    expect(
      failureReason(
        await postSiwe(t, {
          message: forOther,
          signature: await account.signMessage({ message: forOther }),
        }),
      ),
    ).toBe('nonce_unknown')

    const otherApp = await t.createApp(WALLET_APP_SETTINGS)
    const nonce = await siweNonce(t, account.address, { appId: otherApp.id })
    const message = siweMessage(t, account.address, nonce)
    const signature = await account.signMessage({ message })
    expect(failureReason(await postSiwe(t, { message, signature }))).toBe('nonce_unknown')
    expect((await postSiwe(t, { message, signature }, { appId: otherApp.id })).status).toBe(200)
  })

  it('expires SIGN_IN_NONCE_TTL_MS after init', async () => {
    const account = newAccount()
    const nonce = await siweNonce(t, account.address)
    t.clock.advance(SIGN_IN_NONCE_TTL_MS)
    // Issued at the current time: only the nonce is stale.
    const message = siweMessage(t, account.address, nonce)
    const signature = await account.signMessage({ message })
    expect(failureReason(await postSiwe(t, { message, signature }))).toBe('nonce_expired')
  })
})
