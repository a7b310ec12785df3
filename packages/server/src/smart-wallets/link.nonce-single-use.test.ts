import { routes } from '@latchkey/protocol'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { failureReason, siweMessage, siweNonce } from '../auth/siwe/testing.ts'
import { getTestInstance, TEST_ORIGIN, type TestInstance } from '../test/instance.ts'
import {
  postLink,
  smartWalletAppSettings,
  smartWalletsOf,
  userWithEmbeddedWallet,
} from './link.test-helper.ts'

// EIP-4361 §5.2 on the smart_wallet link: a signed link message is good for
// one link. Its nonce is one routes.siweInit issued for the account's address
// to this app; a replayed message, a nonce for another address or another
// app's nonce link nothing. simple_7702 needs no chain: its proof is the
// embedded wallet's own ECDSA signature.
const CHAIN_ID = 31337
let t: TestInstance

beforeAll(async () => {
  t = await getTestInstance({ appSettings: smartWalletAppSettings(CHAIN_ID) })
})
afterAll(() => t?.close())

describe('smart_wallet link nonce', () => {
  it('is spent by the link: the same message again is refused', async () => {
    const user = await userWithEmbeddedWallet(t, 'replay@example.com')
    const nonce = await siweNonce(t, user.owner.address)
    const message = siweMessage(t, user.owner.address, nonce, { chainId: CHAIN_ID })
    const signature = await user.owner.signMessage({ message })
    const first = await postLink(t, user.token, { message, signature, type: 'simple_7702' })
    expect(first.status).toBe(200)
    const latest = (await smartWalletsOf(t, user.token))[0].latest_verified_at
    t.clock.advance(5_000)
    const replay = await postLink(t, user.token, { message, signature, type: 'simple_7702' })
    expect(failureReason(replay)).toBe('nonce_used')
    // The replay refreshed nothing.
    expect((await smartWalletsOf(t, user.token))[0].latest_verified_at).toBe(latest)
  })

  it('must have been issued for the account’s address', async () => {
    const user = await userWithEmbeddedWallet(t, 'other-address@example.com')
    const other = await userWithEmbeddedWallet(t, 'nonce-owner@example.com')
    const nonce = await siweNonce(t, other.owner.address)
    const message = siweMessage(t, user.owner.address, nonce, { chainId: CHAIN_ID })
    const signature = await user.owner.signMessage({ message })
    const res = await postLink(t, user.token, { message, signature, type: 'simple_7702' })
    expect(failureReason(res)).toBe('nonce_unknown')
    expect(await smartWalletsOf(t, user.token)).toEqual([])
  })

  it('must have been issued to this app', async () => {
    const user = await userWithEmbeddedWallet(t, 'other-app@example.com')
    const otherApp = await t.createApp(smartWalletAppSettings(CHAIN_ID), [TEST_ORIGIN])
    const nonce = await siweNonce(t, user.owner.address, { appId: otherApp.id })
    const message = siweMessage(t, user.owner.address, nonce, { chainId: CHAIN_ID })
    const signature = await user.owner.signMessage({ message })
    const res = await postLink(t, user.token, { message, signature, type: 'simple_7702' })
    expect(failureReason(res)).toBe('nonce_unknown')
  })

  it('is not spent by a refused proof', async () => {
    const user = await userWithEmbeddedWallet(t, 'kept@example.com')
    const nonce = await siweNonce(t, user.owner.address)
    const message = siweMessage(t, user.owner.address, nonce, { chainId: CHAIN_ID })
    const forged = await (await userWithEmbeddedWallet(t, 'forger@example.com')).owner.signMessage({
      message,
    })
    const refused = await postLink(t, user.token, {
      message,
      signature: forged,
      type: 'simple_7702',
    })
    expect(failureReason(refused)).toBe('invalid_signature')
    const signature = await user.owner.signMessage({ message })
    const res = await postLink(t, user.token, { message, signature, type: 'simple_7702' })
    expect(res.status).toBe(200)
    const me = await t.request(routes.usersMe, { token: user.token })
    expect(me.body.user.linked_accounts.map((a: { type: string }) => a.type)).toContain(
      'smart_wallet',
    )
  })
})
