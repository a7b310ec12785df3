import { isErc6492Signature, type PublicClient } from 'viem'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { failureReason, siweMessage, siweNonce } from '../auth/siwe/testing.ts'
import {
  type AccountAbstractionChain,
  sharedAccountAbstractionChain,
} from '../test/account-abstraction/index.ts'
import type { TestInstance } from '../test/instance.ts'
import { setAppSettings } from '../users/testing.ts'
import {
  deploy,
  linkMessage,
  linkTestInstance,
  postLink,
  publicClientOf,
  safeOf,
  simpleAccountOf,
  smartWalletsOf,
  userWithEmbeddedWallet,
} from './link.test-helper.ts'

// Spec 01 §7 "Smart-wallet link" (docs/smart-wallets.md "The smart_wallet
// link"): each account type links with the proof it can give, against real
// peers: Anvil with the audited contracts at their public addresses.
let aa: AccountAbstractionChain
let t: TestInstance
let client: PublicClient

beforeAll(async () => {
  aa = await sharedAccountAbstractionChain()
  t = await linkTestInstance(aa)
  client = publicClientOf(aa)
}, 120_000)
afterAll(async () => {
  await t?.close()
  await aa?.stop()
})

describe('smart_wallet link', { timeout: 60_000 }, () => {
  it('links a counterfactual Safe by its ERC-6492 signature, then relinks it deployed by ERC-1271', async () => {
    const user = await userWithEmbeddedWallet(t, 'safe@example.com')
    const safe = await safeOf(client, user.owner)
    expect(await client.getCode({ address: safe.address })).toBeUndefined()

    const message = await linkMessage(t, aa, safe.address)
    const signature = await safe.signMessage({ message })
    expect(isErc6492Signature(signature)).toBe(true)
    const res = await postLink(t, user.token, { message, signature, type: 'safe' })
    expect(res.status).toBe(200)
    const linked = {
      type: 'smart_wallet',
      address: safe.address,
      smart_wallet_type: 'safe',
      smart_wallet_version: '1.4.1',
    }
    expect(res.body.linked_accounts).toContainEqual(expect.objectContaining(linked))
    // Verifying simulated the deployment; nothing was sent.
    expect(await client.getCode({ address: safe.address })).toBeUndefined()
    const [first] = await smartWalletsOf(t, user.token)
    expect(first).toMatchObject(linked)

    await deploy(aa, safe)
    t.clock.advance(60_000)
    const again = await linkMessage(t, aa, safe.address)
    const deployed = await safe.signMessage({ message: again })
    expect(isErc6492Signature(deployed)).toBe(false)
    const relinked = await postLink(t, user.token, {
      message: again,
      signature: deployed,
      type: 'safe',
    })
    expect(relinked.status).toBe(200)
    const accounts = await smartWalletsOf(t, user.token)
    expect(accounts).toHaveLength(1)
    expect(accounts[0]).toMatchObject({
      ...linked,
      first_verified_at: first.first_verified_at,
      latest_verified_at: first.latest_verified_at + 60,
    })
  })

  it('links a SimpleAccount by its owner’s signature (it has no ERC-1271)', async () => {
    const user = await userWithEmbeddedWallet(t, 'simple@example.com')
    const account = await simpleAccountOf(client, user.owner)
    const message = await linkMessage(t, aa, account.address)
    const signature = await user.owner.signMessage({ message })
    const res = await postLink(t, user.token, { message, signature, type: 'simple' })
    expect(res.status).toBe(200)
    expect(await smartWalletsOf(t, user.token)).toEqual([
      expect.objectContaining({
        address: account.address,
        smart_wallet_type: 'simple',
        smart_wallet_version: '0.7',
      }),
    ])
  })

  it('links the embedded wallet itself as simple_7702', async () => {
    const user = await userWithEmbeddedWallet(t, 'eip7702@example.com')
    const message = await linkMessage(t, aa, user.owner.address)
    const signature = await user.owner.signMessage({ message })
    const res = await postLink(t, user.token, { message, signature, type: 'simple_7702' })
    expect(res.status).toBe(200)
    expect(await smartWalletsOf(t, user.token)).toEqual([
      expect.objectContaining({
        address: user.owner.address,
        smart_wallet_type: 'simple_7702',
        smart_wallet_version: '0.8',
      }),
    ])
    // The embedded wallet is still there, beside its smart_wallet link.
    const wallets = res.body.linked_accounts.filter((a: { type: string }) => a.type === 'wallet')
    expect(wallets).toHaveLength(1)
  })

  it('refuses a second, different smart wallet (one account per type)', async () => {
    const user = await userWithEmbeddedWallet(t, 'second@example.com')
    const first = await linkMessage(t, aa, user.owner.address)
    const ok = await postLink(t, user.token, {
      message: first,
      signature: await user.owner.signMessage({ message: first }),
      type: 'simple_7702',
    })
    expect(ok.status).toBe(200)
    const safe = await safeOf(client, user.owner)
    const message = await linkMessage(t, aa, safe.address)
    const res = await postLink(t, user.token, {
      message,
      signature: await safe.signMessage({ message }),
      type: 'safe',
    })
    expect(res).toMatchObject({
      status: 400,
      body: {
        code: 'CANNOT_LINK_MORE_OF_TYPE',
        message: 'Only one smart wallet can be linked to an account.',
      },
    })
    expect(await smartWalletsOf(t, user.token)).toEqual([
      expect.objectContaining({ address: user.owner.address }),
    ])
  })

  it('refuses a version that is not the type’s, and a type the proof is not', async () => {
    const user = await userWithEmbeddedWallet(t, 'version@example.com')
    const safe = await safeOf(client, user.owner)
    const message = await linkMessage(t, aa, safe.address)
    const signature = await safe.signMessage({ message })
    const wrongVersion = await postLink(t, user.token, {
      message,
      signature,
      type: 'safe',
      version: '1.3.0',
    })
    expect(wrongVersion).toMatchObject({ status: 400, body: { code: 'INVALID_PAYLOAD' } })
    // The Safe's signature is no owner's ECDSA signature: it is not a SimpleAccount's proof.
    const wrongType = await postLink(t, user.token, { message, signature, type: 'simple' })
    expect(failureReason(wrongType)).toBe('invalid_signature')
    // The embedded wallet's own signature does not make it a Safe.
    const eoa = await linkMessage(t, aa, user.owner.address)
    const notSafe = await postLink(t, user.token, {
      message: eoa,
      signature: await user.owner.signMessage({ message: eoa }),
      type: 'safe',
    })
    expect(failureReason(notSafe)).toBe('not_a_safe')
    expect(await smartWalletsOf(t, user.token)).toEqual([])
  })

  it('refuses while the app has smart wallets off, and on a chain it has none on', async () => {
    const user = await userWithEmbeddedWallet(t, 'settings@example.com')
    const nonce = await siweNonce(t, user.owner.address)
    const otherChain = siweMessage(t, user.owner.address, nonce, { chainId: 8453 })
    const unsupported = await postLink(t, user.token, {
      message: otherChain,
      signature: await user.owner.signMessage({ message: otherChain }),
      type: 'simple_7702',
    })
    expect(unsupported).toMatchObject({ status: 400, body: { code: 'UNSUPPORTED_CHAIN' } })

    const on = t.app.settings
    await setAppSettings(t, t.app.id, { ...on, smart_wallets: { enabled: false, chains: [] } })
    try {
      const message = await linkMessage(t, aa, user.owner.address)
      const off = await postLink(t, user.token, {
        message,
        signature: await user.owner.signMessage({ message }),
        type: 'simple_7702',
      })
      expect(off).toMatchObject({ status: 404, body: { code: 'NOT_FOUND' } })
    } finally {
      await setAppSettings(t, t.app.id, on)
    }
    expect(await smartWalletsOf(t, user.token)).toEqual([])
  })

  it('refuses a request without an access token', async () => {
    const user = await userWithEmbeddedWallet(t, 'no-token@example.com')
    const message = await linkMessage(t, aa, user.owner.address)
    const signature = await user.owner.signMessage({ message })
    const res = await postLink(t, undefined, { message, signature, type: 'simple_7702' })
    expect(res.status).toBe(401)
    expect(await smartWalletsOf(t, user.token)).toEqual([])
  })
})
