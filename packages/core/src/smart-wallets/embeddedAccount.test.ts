// @vitest-environment node
// The embedded wallet (its key in the real enclave page) owns a smart wallet
// that really runs: Anvil (Prague) with the audited ERC-4337 contracts and
// Pimlico's Alto bundler (@latchkey/server/test/account-abstraction). The
// bundler transport points at Alto itself; the server's rpc route relays the
// same JSON-RPC (its own tests cover it).

import {
  type AccountAbstractionChain,
  sharedAccountAbstractionChain,
} from '@latchkey/server/test/account-abstraction'
import {
  type Address,
  concat,
  createPublicClient,
  createWalletClient,
  http,
  type PublicClient,
  parseEther,
  parseEventLogs,
} from 'viem'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { verifyMessage } from 'viem/actions'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { embeddedWalletClient } from './embedded.test-helper.ts'
import { toEmbeddedSmartWallet } from './embeddedAccount.ts'
import type { SmartWalletType } from './toSmartWalletAccount.ts'

const randomAddress = () => privateKeyToAccount(generatePrivateKey()).address
const VERSIONS = { simple: '0.7', safe: '1.4.1', simple_7702: '0.8' } as const
const accountDeployed = [
  {
    type: 'event',
    name: 'AccountDeployed',
    inputs: [
      { name: 'userOpHash', type: 'bytes32', indexed: true },
      { name: 'sender', type: 'address', indexed: true },
      { name: 'factory', type: 'address', indexed: false },
      { name: 'paymaster', type: 'address', indexed: false },
    ],
  },
] as const

let aa: AccountAbstractionChain
let publicClient: PublicClient

beforeAll(async () => {
  aa = await sharedAccountAbstractionChain()
  publicClient = createPublicClient({
    chain: aa.chain,
    transport: http(aa.rpcUrl),
    pollingInterval: 50,
  })
}, 180_000)
afterAll(() => aa?.stop())

async function fund(address: Address) {
  const funder = createWalletClient({
    account: aa.deployer.account,
    chain: aa.chain,
    transport: http(aa.rpcUrl),
  })
  await publicClient.waitForTransactionReceipt({
    hash: await funder.sendTransaction({ to: address, value: parseEther('1') }),
  })
}

async function embeddedSmartWallet(type: SmartWalletType) {
  const user = await embeddedWalletClient({
    type,
    version: VERSIONS[type],
    chains: [{ chain_id: aa.chain.id, sponsored: false }],
  })
  const smartWallet = await toEmbeddedSmartWallet(user.client, {
    wallet: user.wallet,
    chain: aa.chain,
    transport: http(aa.bundlerUrl),
    pollingInterval: 50,
  })
  return { ...user, smartWallet }
}

const rpcMethods = (traffic: { requests: { event: string; data: Record<string, unknown> }[] }) =>
  traffic.requests
    .filter((r) => r.event === 'latchkey:wallets:rpc')
    .map((r) => (r.data.request as { method: string }).method)

describe('a smart wallet owned by the enclave', { timeout: 90_000 }, () => {
  test('SimpleAccount: deployed by the first send, a batch of two in one user operation', async () => {
    const { smartWallet, traffic } = await embeddedSmartWallet('simple')
    expect(smartWallet).toMatchObject({ type: 'simple', version: '0.7', sponsored: false })
    expect(await smartWallet.isDeployed()).toBe(false)
    await fund(smartWallet.address)
    const [first, second] = [randomAddress(), randomAddress()]

    const prepared = await smartWallet.prepareCalls([{ to: first, value: 1_000n }])
    expect(prepared.sponsored).toBe(false)
    expect(prepared.userOperation.sender).toBe(smartWallet.address)
    expect(prepared.maxCost).toBeGreaterThan(0n)
    // Estimating signs nothing: the confirm screen shows the fee first.
    expect(rpcMethods(traffic)).toEqual([])

    const sent = await smartWallet.sendCalls([
      { to: first, value: 1_000n },
      { to: second, value: 2_000n },
    ])
    expect(sent.success).toBe(true)
    expect(sent.transactionHash).toBe(sent.receipt.transactionHash)
    const deployed = parseEventLogs({ abi: accountDeployed, logs: sent.receipt.logs })
    expect(deployed.map((e) => e.args.sender)).toEqual([smartWallet.address])
    expect(await publicClient.getBalance({ address: first })).toBe(1_000n)
    expect(await publicClient.getBalance({ address: second })).toBe(2_000n)
    // The user operation hash was signed in the enclave (EIP-191, SimpleAccount v0.7).
    expect(rpcMethods(traffic)).toEqual(['personal_sign'])

    const again = await smartWallet.sendCalls([{ to: first, value: 1n }])
    expect(parseEventLogs({ abi: accountDeployed, logs: again.receipt.logs })).toEqual([])
    expect(await publicClient.getBalance({ address: first })).toBe(1_001n)
  })

  test('Safe: ERC-6492 before deployment, ERC-1271 after, batch of two', async () => {
    const { smartWallet, traffic } = await embeddedSmartWallet('safe')
    const message = 'Sign in to Latchkey'
    const counterfactual = await smartWallet.signMessage(message)
    expect(
      await verifyMessage(publicClient, {
        address: smartWallet.address,
        message,
        signature: counterfactual,
      }),
    ).toBe(true)
    expect(
      counterfactual.endsWith('6492649264926492649264926492649264926492649264926492649264926492'),
    ).toBe(true)

    await fund(smartWallet.address)
    const [first, second] = [randomAddress(), randomAddress()]
    const sent = await smartWallet.sendCalls([
      { to: first, value: 5n },
      { to: second, value: 6n },
    ])
    expect(sent.success).toBe(true)
    expect(await smartWallet.isDeployed()).toBe(true)
    expect(await publicClient.getBalance({ address: second })).toBe(6n)

    const deployedSignature = await smartWallet.signMessage(message)
    expect(
      await verifyMessage(publicClient, {
        address: smartWallet.address,
        message,
        signature: deployedSignature,
      }),
    ).toBe(true)
    // Signed in the enclave: the messages' SafeMessage hash (EIP-191) and the user operation (EIP-712).
    expect(rpcMethods(traffic)).toEqual(['personal_sign', 'eth_signTypedData_v4', 'personal_sign'])
  })

  test('EIP-7702: the enclave signs the authorization, the wallet keeps its address', async () => {
    const { smartWallet, wallet, traffic } = await embeddedSmartWallet('simple_7702')
    const implementation = aa.eip7702?.implementation
    if (!implementation) throw new Error('chain started without EIP-7702 contracts')
    expect(smartWallet.address.toLowerCase()).toBe(wallet.address.toLowerCase())
    expect(await smartWallet.isDeployed()).toBe(false)
    await fund(smartWallet.address)
    const [first, second] = [randomAddress(), randomAddress()]

    const sent = await smartWallet.sendCalls([
      { to: first, value: 1_000n },
      { to: second, value: 2_000n },
    ])

    expect(sent.success).toBe(true)
    expect(await publicClient.getCode({ address: smartWallet.address })).toBe(
      concat(['0xef0100', implementation]).toLowerCase(),
    )
    expect(await publicClient.getBalance({ address: first })).toBe(1_000n)
    expect(await publicClient.getBalance({ address: second })).toBe(2_000n)
    expect(rpcMethods(traffic)).toEqual(['eth_signAuthorization', 'eth_signTypedData_v4'])

    // Upgraded: the next operation carries no authorization.
    await smartWallet.sendCalls([{ to: first, value: 1n }])
    expect(rpcMethods(traffic).filter((m) => m === 'eth_signAuthorization')).toHaveLength(1)
    const message = 'Sign in to Latchkey'
    const signature = await smartWallet.signMessage(message)
    expect(
      await verifyMessage(publicClient, { address: smartWallet.address, message, signature }),
    ).toBe(true)
  })
})
