// @vitest-environment node
// The second account implementation: Safe v1.4.1 + Safe4337Module (EntryPoint
// v0.7), whose ERC-1271 support makes smart-account signatures checkable:
// ERC-6492-wrapped before deployment, plain ERC-1271 after. Real peers: Anvil,
// the audited contracts at their public addresses, Alto.

import {
  type AccountAbstractionChain,
  sharedAccountAbstractionChain,
} from '@latchkey/server/test/account-abstraction'
import {
  createPublicClient,
  createWalletClient,
  http,
  isErc6492Signature,
  type PublicClient,
  parseEther,
} from 'viem'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { verifyMessage } from 'viem/actions'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { createSmartWalletClient } from './createSmartWalletClient.ts'
import { sendSmartWalletCalls } from './sendSmartWalletCalls.ts'
import { toSmartWalletAccount } from './toSmartWalletAccount.ts'

const randomAddress = () => privateKeyToAccount(generatePrivateKey()).address

let aa: AccountAbstractionChain
let publicClient: PublicClient

beforeAll(async () => {
  aa = await sharedAccountAbstractionChain()
  publicClient = createPublicClient({
    chain: aa.chain,
    transport: http(aa.rpcUrl),
    pollingInterval: 50,
  })
}, 120_000)
afterAll(() => aa?.stop())

async function newSafe() {
  const owner = privateKeyToAccount(generatePrivateKey())
  const wallet = await toSmartWalletAccount({ client: publicClient, owner, type: 'safe' })
  const client = createSmartWalletClient({
    account: wallet.account,
    chain: aa.chain,
    bundlerUrl: aa.bundlerUrl,
    client: publicClient,
    pollingInterval: 50,
  })
  return { owner, wallet, client }
}

describe('smart wallet (Safe v1.4.1)', { timeout: 60_000 }, () => {
  test('signs messages that verify before deployment (ERC-6492) and after (ERC-1271)', async () => {
    const { owner, wallet, client } = await newSafe()
    const address = wallet.account.address
    expect({ type: wallet.type, version: wallet.version }).toEqual({
      type: 'safe',
      version: '1.4.1',
    })
    expect(await publicClient.getCode({ address })).toBeUndefined()
    const message = 'latchkey.test wants you to sign in with your Ethereum account'

    const before = await client.signMessage({ message })
    expect(isErc6492Signature(before)).toBe(true)
    expect(await verifyMessage(publicClient, { address, message, signature: before })).toBe(true)
    expect(
      await verifyMessage(publicClient, { address, message: 'another', signature: before }),
    ).toBe(false)
    // Verifying simulated the deployment; nothing was deployed.
    expect(await publicClient.getCode({ address })).toBeUndefined()

    const funder = createWalletClient({
      account: aa.deployer.account,
      chain: aa.chain,
      transport: http(aa.rpcUrl),
    })
    await publicClient.waitForTransactionReceipt({
      hash: await funder.sendTransaction({ to: address, value: parseEther('1') }),
    })
    const recipient = privateKeyToAccount(generatePrivateKey()).address
    const { receipt } = await sendSmartWalletCalls(client, {
      calls: [{ to: recipient, value: 5n }],
    })
    expect(receipt.success).toBe(true)
    expect(await publicClient.getBalance({ address: recipient })).toBe(5n)
    expect(await wallet.account.isDeployed()).toBe(true)

    const after = await client.signMessage({ message })
    expect(isErc6492Signature(after)).toBe(false)
    expect(await verifyMessage(publicClient, { address, message, signature: after })).toBe(true)
    // The owner's own signature is not the Safe's.
    const ownerSignature = await owner.signMessage({ message })
    expect(await verifyMessage(publicClient, { address, message, signature: ownerSignature })).toBe(
      false,
    )
  })

  test('sends a batch of two calls in one user operation (MultiSend)', async () => {
    const { wallet, client } = await newSafe()
    const funder = createWalletClient({
      account: aa.deployer.account,
      chain: aa.chain,
      transport: http(aa.rpcUrl),
    })
    await publicClient.waitForTransactionReceipt({
      hash: await funder.sendTransaction({ to: wallet.account.address, value: parseEther('1') }),
    })
    const [first, second] = [randomAddress(), randomAddress()]
    const { receipt } = await sendSmartWalletCalls(client, {
      calls: [
        { to: first, value: 10n },
        { to: second, value: 20n },
      ],
    })
    expect(receipt.success).toBe(true)
    expect(await publicClient.getBalance({ address: first })).toBe(10n)
    expect(await publicClient.getBalance({ address: second })).toBe(20n)
  })
})
