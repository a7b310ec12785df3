// @vitest-environment node
// EIP-7702: the embedded EOA itself becomes a smart account by delegating to
// Simple7702Account (EntryPoint v0.8), keeping its address. Real peers: Anvil
// (Prague) + EntryPoint v0.8 + Alto (@latchkey/server/test/account-abstraction).

import {
  type AccountAbstractionChain,
  sharedAccountAbstractionChain,
} from '@latchkey/server/test/account-abstraction'
import {
  concat,
  createPublicClient,
  createWalletClient,
  hashMessage,
  http,
  type PublicClient,
  parseEther,
} from 'viem'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { verifyMessage } from 'viem/actions'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { createSmartWalletClient } from './createSmartWalletClient.ts'
import { isUpgraded, signSmartWalletAuthorization } from './signSmartWalletAuthorization.ts'
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

describe('EIP-7702 upgraded embedded wallet', { timeout: 60_000 }, () => {
  test('an EOA signs an authorization and sends a call as a smart account, keeping its address', async () => {
    const owner = privateKeyToAccount(generatePrivateKey())
    const implementation = aa.eip7702?.implementation
    if (!implementation) throw new Error('chain started without EIP-7702 contracts')
    const wallet = await toSmartWalletAccount({ client: publicClient, owner, type: 'simple_7702' })
    expect(wallet.account.address).toBe(owner.address)
    expect(await isUpgraded(wallet.account)).toBe(false)
    const funder = createWalletClient({
      account: aa.deployer.account,
      chain: aa.chain,
      transport: http(aa.rpcUrl),
    })
    await publicClient.waitForTransactionReceipt({
      hash: await funder.sendTransaction({ to: owner.address, value: parseEther('1') }),
    })
    const client = createSmartWalletClient({
      account: wallet.account,
      chain: aa.chain,
      bundlerUrl: aa.bundlerUrl,
      client: publicClient,
      pollingInterval: 50,
    })
    const authorization = await signSmartWalletAuthorization({
      client: publicClient,
      owner,
      implementation,
    })
    const [first, second] = [randomAddress(), randomAddress()]

    const hash = await client.sendUserOperation({
      calls: [
        { to: first, value: 1_000n },
        { to: second, value: 2_000n },
      ],
      authorization,
    })
    const receipt = await client.waitForUserOperationReceipt({ hash })

    expect(receipt.success).toBe(true)
    expect(receipt.sender).toBe(owner.address)
    expect(await publicClient.getCode({ address: owner.address })).toBe(
      concat(['0xef0100', implementation]).toLowerCase(),
    )
    expect(await isUpgraded(wallet.account)).toBe(true)
    expect(await publicClient.getBalance({ address: first })).toBe(1_000n)
    expect(await publicClient.getBalance({ address: second })).toBe(2_000n)

    // ERC-1271 through the delegated code: Simple7702Account checks the EOA's own key.
    const message = 'Sign in to Latchkey'
    const signature = await client.signMessage({ message })
    expect(await verifyMessage(publicClient, { address: owner.address, message, signature })).toBe(
      true,
    )
    const isValid = await publicClient.readContract({
      address: owner.address,
      abi: [
        {
          type: 'function',
          name: 'isValidSignature',
          stateMutability: 'view',
          inputs: [{ type: 'bytes32' }, { type: 'bytes' }],
          outputs: [{ type: 'bytes4' }],
        },
      ],
      functionName: 'isValidSignature',
      args: [hashMessage(message), signature],
    })
    expect(isValid).toBe('0x1626ba7e')
  })
})
