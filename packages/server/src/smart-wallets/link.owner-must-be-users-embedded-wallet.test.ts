import type { PublicClient } from 'viem'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { failureReason } from '../auth/siwe/testing.ts'
import {
  type AccountAbstractionChain,
  sharedAccountAbstractionChain,
} from '../test/account-abstraction/index.ts'
import type { TestInstance } from '../test/instance.ts'
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

// A smart wallet links only when one of the user's own embedded Ethereum
// wallets controls it (docs/smart-wallets.md "The smart_wallet link"): a
// valid signature of an account some other key owns links nothing, whether
// the account is a Safe (counterfactual or deployed), a SimpleAccount or an
// EOA claimed as simple_7702.
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

const stranger = () => privateKeyToAccount(generatePrivateKey())

describe('smart_wallet link: the owner is one of the user’s embedded wallets', {
  timeout: 60_000,
}, () => {
  it('refuses a counterfactual Safe another key owns, though its ERC-6492 signature is valid', async () => {
    const user = await userWithEmbeddedWallet(t, 'safe-6492@example.com')
    const safe = await safeOf(client, stranger())
    const message = await linkMessage(t, aa, safe.address)
    const signature = await safe.signMessage({ message })
    const res = await postLink(t, user.token, { message, signature, type: 'safe' })
    expect(failureReason(res)).toBe('owner_not_embedded_wallet')
    expect(await smartWalletsOf(t, user.token)).toEqual([])
  })

  it('refuses a deployed Safe another key owns, though its ERC-1271 signature is valid', async () => {
    const user = await userWithEmbeddedWallet(t, 'safe-1271@example.com')
    const safe = await safeOf(client, stranger())
    await deploy(aa, safe)
    const message = await linkMessage(t, aa, safe.address)
    const signature = await safe.signMessage({ message })
    const res = await postLink(t, user.token, { message, signature, type: 'safe' })
    expect(failureReason(res)).toBe('owner_not_embedded_wallet')
    expect(await smartWalletsOf(t, user.token)).toEqual([])
  })

  it('refuses a SimpleAccount whose owner is not an embedded wallet of the user', async () => {
    const user = await userWithEmbeddedWallet(t, 'simple-stranger@example.com')
    const owner = stranger()
    const account = await simpleAccountOf(client, owner)
    const message = await linkMessage(t, aa, account.address)
    const res = await postLink(t, user.token, {
      message,
      signature: await owner.signMessage({ message }),
      type: 'simple',
    })
    expect(failureReason(res)).toBe('owner_not_embedded_wallet')
  })

  it('refuses an address that is not the SimpleAccount of the signing owner', async () => {
    const user = await userWithEmbeddedWallet(t, 'simple-other-address@example.com')
    // Someone else's SimpleAccount, signed for by this user's embedded wallet.
    const theirs = await simpleAccountOf(client, stranger())
    const message = await linkMessage(t, aa, theirs.address)
    const res = await postLink(t, user.token, {
      message,
      signature: await user.owner.signMessage({ message }),
      type: 'simple',
    })
    expect(failureReason(res)).toBe('not_owners_account')
    // The user's own account at another salt: only salt 0 (what core creates) links.
    const salted = await simpleAccountOf(client, user.owner, 1n)
    const other = await linkMessage(t, aa, salted.address)
    const refused = await postLink(t, user.token, {
      message: other,
      signature: await user.owner.signMessage({ message: other }),
      type: 'simple',
    })
    expect(failureReason(refused)).toBe('not_owners_account')
    expect(await smartWalletsOf(t, user.token)).toEqual([])
  })

  it('refuses as simple_7702 an EOA that is not an embedded wallet of the user', async () => {
    const user = await userWithEmbeddedWallet(t, 'eoa-stranger@example.com')
    const eoa = stranger()
    const message = await linkMessage(t, aa, eoa.address)
    const res = await postLink(t, user.token, {
      message,
      signature: await eoa.signMessage({ message }),
      type: 'simple_7702',
    })
    expect(failureReason(res)).toBe('not_embedded_wallet')
    expect(await smartWalletsOf(t, user.token)).toEqual([])
  })
})
