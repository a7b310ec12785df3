// @vitest-environment node
// Real peers: Anvil with EntryPoint v0.7 + SimpleAccountFactory v0.7, and the
// Alto bundler (packages/server/src/test/account-abstraction).

import {
  type AccountAbstractionChain,
  accountAbstractionAbis,
  sharedAccountAbstractionChain,
} from '@latchkey/server/test/account-abstraction'
import {
  type Address,
  createPublicClient,
  createWalletClient,
  http,
  type Log,
  type PublicClient,
  parseEther,
  parseEventLogs,
} from 'viem'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { createSmartWalletClient } from './createSmartWalletClient.ts'
import { sendSmartWalletCalls } from './sendSmartWalletCalls.ts'
import { toSmartWalletAccount } from './toSmartWalletAccount.ts'

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

/** A new owner (standing in for the embedded signer) and its smart wallet client. */
async function newSmartWallet() {
  const owner = privateKeyToAccount(generatePrivateKey())
  const wallet = await toSmartWalletAccount({ client: publicClient, owner })
  const client = createSmartWalletClient({
    account: wallet.account,
    chain: aa.chain,
    bundlerUrl: aa.bundlerUrl,
    client: publicClient,
    pollingInterval: 50,
  })
  return { owner, wallet, client }
}

async function fund(address: Address, value: bigint) {
  const wallet = createWalletClient({
    account: aa.deployer.account,
    chain: aa.chain,
    transport: http(aa.rpcUrl),
  })
  await publicClient.waitForTransactionReceipt({
    hash: await wallet.sendTransaction({ to: address, value }),
  })
}

function entryPointEvents(logs: Log[], eventName: 'AccountDeployed' | 'UserOperationEvent') {
  const events = parseEventLogs({ abi: accountAbstractionAbis.entryPoint(), logs })
  return events.filter((event) => event.eventName === eventName) as Array<{
    args: Record<string, unknown>
  }>
}

const randomAddress = () => privateKeyToAccount(generatePrivateKey()).address

describe('smart wallet (SimpleAccount v0.7)', { timeout: 30_000 }, () => {
  test('has a counterfactual address before deployment: the factory’s, with no code yet', async () => {
    const { owner, wallet } = await newSmartWallet()
    const fromFactory = await publicClient.readContract({
      address: aa.simpleAccountFactory,
      abi: accountAbstractionAbis.simpleAccountFactory(),
      functionName: 'getAddress',
      args: [owner.address, 0n],
    })
    expect(wallet.account.address).toBe(fromFactory)
    expect(wallet.account.address).not.toBe(owner.address)
    expect(await publicClient.getCode({ address: wallet.account.address })).toBeUndefined()
    expect(await wallet.account.isDeployed()).toBe(false)
    expect({ type: wallet.type, version: wallet.version }).toEqual({
      type: 'simple',
      version: '0.7',
    })
  })

  test('is deployed by its first transaction, at the address shown before', async () => {
    const { wallet, client } = await newSmartWallet()
    const address = wallet.account.address
    await fund(address, parseEther('1'))
    const recipient = randomAddress()

    const { receipt } = await sendSmartWalletCalls(client, {
      calls: [{ to: recipient, value: parseEther('0.1') }],
    })

    expect(receipt.success).toBe(true)
    expect(receipt.sender).toBe(address)
    expect(await publicClient.getBalance({ address: recipient })).toBe(parseEther('0.1'))
    expect(await publicClient.getCode({ address })).toMatch(/^0x[0-9a-f]+$/)
    expect(await wallet.account.isDeployed()).toBe(true)
    expect(entryPointEvents(receipt.receipt.logs, 'AccountDeployed')).toHaveLength(1)
    // The account paid for its own gas out of the 1 ETH: the prefund it sent
    // the EntryPoint, less what the operation cost, stays there as its deposit.
    const deposit = await publicClient.readContract({
      address: aa.entryPoint.address,
      abi: accountAbstractionAbis.entryPoint(),
      functionName: 'balanceOf',
      args: [address],
    })
    expect((await publicClient.getBalance({ address })) + (deposit as bigint)).toBe(
      parseEther('0.9') - receipt.actualGasCost,
    )

    // A second send goes through the deployed account: nothing deployed again.
    const hash = await client.sendTransaction({ to: recipient, value: 1n })
    const second = await publicClient.getTransactionReceipt({ hash })
    expect(entryPointEvents(second.logs, 'AccountDeployed')).toHaveLength(0)
    expect(await publicClient.getBalance({ address: recipient })).toBe(parseEther('0.1') + 1n)
  })

  test('sends a batch of two calls as one user operation in one transaction', async () => {
    const { wallet, client } = await newSmartWallet()
    await fund(wallet.account.address, parseEther('1'))
    const [first, second] = [randomAddress(), randomAddress()]

    const { userOperationHash, receipt } = await sendSmartWalletCalls(client, {
      calls: [
        { to: first, value: 1_000n },
        { to: second, value: 2_000n },
      ],
    })

    expect(receipt.userOpHash).toBe(userOperationHash)
    expect(receipt.success).toBe(true)
    expect(await publicClient.getBalance({ address: first })).toBe(1_000n)
    expect(await publicClient.getBalance({ address: second })).toBe(2_000n)
    // One operation in one handleOps transaction.
    const [event, ...others] = entryPointEvents(receipt.receipt.logs, 'UserOperationEvent')
    expect(others).toHaveLength(0)
    expect(event?.args).toMatchObject({ userOpHash: userOperationHash, success: true })
    const transaction = await publicClient.getTransaction({ hash: receipt.receipt.transactionHash })
    expect(transaction.to?.toLowerCase()).toBe(aa.entryPoint.address.toLowerCase())
  })
})
