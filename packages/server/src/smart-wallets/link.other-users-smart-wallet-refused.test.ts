import { toSafeSmartAccount } from 'permissionless/accounts'
import type { PublicClient } from 'viem'
import { entryPoint07Address } from 'viem/account-abstraction'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { failureReason } from '../auth/siwe/testing.ts'
import {
  type AccountAbstractionChain,
  sharedAccountAbstractionChain,
} from '../test/account-abstraction/index.ts'
import type { TestInstance } from '../test/instance.ts'
import {
  linkMessage,
  linkTestInstance,
  postLink,
  publicClientOf,
  safeOf,
  simpleAccountOf,
  smartWalletsOf,
  userWithEmbeddedWallet,
} from './link.test-helper.ts'

// Another user's smart wallet never becomes yours: a link message the
// victim signed (for a link or a SIWE login on this app), posted with the
// attacker's token before the victim's own request, is refused and leaves
// the victim's nonce unspent; and an account already linked to another user
// (here a Safe both users' embedded wallets own) is refused with spec 01
// §8 'This account has already been linked to another user.'
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

describe('smart_wallet link: another user’s smart wallet', { timeout: 60_000 }, () => {
  it('refuses a Safe link message the victim signed, posted with the attacker’s token', async () => {
    const victim = await userWithEmbeddedWallet(t, 'victim-safe@example.com')
    const attacker = await userWithEmbeddedWallet(t, 'attacker-safe@example.com')
    const safe = await safeOf(client, victim.owner)
    const message = await linkMessage(t, aa, safe.address)
    const signature = await safe.signMessage({ message })
    const stolen = await postLink(t, attacker.token, { message, signature, type: 'safe' })
    expect(failureReason(stolen)).toBe('owner_not_embedded_wallet')
    expect(await smartWalletsOf(t, attacker.token)).toEqual([])
    // The victim's request still goes through: the refused one spent nothing.
    const own = await postLink(t, victim.token, { message, signature, type: 'safe' })
    expect(own.status).toBe(200)
  })

  it('refuses a SimpleAccount and a simple_7702 message the victim signed', async () => {
    const victim = await userWithEmbeddedWallet(t, 'victim-simple@example.com')
    const attacker = await userWithEmbeddedWallet(t, 'attacker-simple@example.com')
    const account = await simpleAccountOf(client, victim.owner)
    const simple = await linkMessage(t, aa, account.address)
    const simpleRes = await postLink(t, attacker.token, {
      message: simple,
      signature: await victim.owner.signMessage({ message: simple }),
      type: 'simple',
    })
    expect(failureReason(simpleRes)).toBe('owner_not_embedded_wallet')
    const eoa = await linkMessage(t, aa, victim.owner.address)
    const eoaRes = await postLink(t, attacker.token, {
      message: eoa,
      signature: await victim.owner.signMessage({ message: eoa }),
      type: 'simple_7702',
    })
    expect(failureReason(eoaRes)).toBe('not_embedded_wallet')
    expect(await smartWalletsOf(t, attacker.token)).toEqual([])
  })

  it('refuses a smart wallet already linked to another user', async () => {
    const first = await userWithEmbeddedWallet(t, 'first-owner@example.com')
    const second = await userWithEmbeddedWallet(t, 'second-owner@example.com')
    // A Safe both embedded wallets own (threshold 1): each can prove it.
    const both = await toSafeSmartAccount({
      client,
      owners: [first.owner, second.owner],
      threshold: 1n,
      version: '1.4.1',
      entryPoint: { address: entryPoint07Address, version: '0.7' },
    })
    const message = await linkMessage(t, aa, both.address)
    const linked = await postLink(t, first.token, {
      message,
      signature: await both.signMessage({ message }),
      type: 'safe',
    })
    expect(linked.status).toBe(200)

    const again = await linkMessage(t, aa, both.address)
    const res = await postLink(t, second.token, {
      message: again,
      signature: await both.signMessage({ message: again }),
      type: 'safe',
    })
    expect(res).toMatchObject({
      status: 400,
      body: {
        code: 'ACCOUNT_ALREADY_LINKED',
        message: 'This account has already been linked to another user.',
      },
    })
    expect(await smartWalletsOf(t, second.token)).toEqual([])
    expect(await smartWalletsOf(t, first.token)).toEqual([
      expect.objectContaining({ address: both.address, smart_wallet_type: 'safe' }),
    ])
  })
})
