// Sponsored gas through eth-infinitism's VerifyingPaymaster v0.7, with real
// peers: Anvil + EntryPoint v0.7 + Alto (test/account-abstraction). The
// signing alone, with a local key: the server's route wraps it (sponsor.ts).

import { createSmartAccountClient } from 'permissionless'
import { toSimpleSmartAccount } from 'permissionless/accounts'
import {
  type Abi,
  type Address,
  createPublicClient,
  encodeFunctionData,
  http,
  type PublicClient,
} from 'viem'
import {
  entryPoint07Address,
  type PaymasterActions,
  toPackedUserOperation,
} from 'viem/account-abstraction'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import {
  type AccountAbstractionChain,
  accountAbstractionAbis,
  deployVerifyingPaymaster07,
  sharedAccountAbstractionChain,
} from '../test/account-abstraction/index.ts'
import { deployTestTokens, type TestTokens } from '../test/chains.ts'
import { type RouteSmartAccountClient, sendCalls } from './paymaster.test-helper.ts'
import { createVerifyingPaymaster, getVerifyingPaymasterHash } from './verifying-paymaster.ts'

type SmartWalletPaymaster = Pick<PaymasterActions, 'getPaymasterData'> &
  Partial<Pick<PaymasterActions, 'getPaymasterStubData'>>

let aa: AccountAbstractionChain
let publicClient: PublicClient
let paymaster: { address: Address; abi: Abi }
const sponsorKey = privateKeyToAccount(generatePrivateKey())

beforeAll(async () => {
  aa = await sharedAccountAbstractionChain()
  publicClient = createPublicClient({
    chain: aa.chain,
    transport: http(aa.rpcUrl),
    pollingInterval: 50,
  })
  paymaster = await deployVerifyingPaymaster07(aa.deployer, { verifyingSigner: sponsorKey.address })
}, 120_000)
afterAll(() => aa?.stop())

/** A new owner's smart wallet (never funded with ETH) holding 1 000 test tokens. */
async function newTokenHolder(sponsor: SmartWalletPaymaster) {
  const owner = privateKeyToAccount(generatePrivateKey())
  const account = await toSimpleSmartAccount({
    client: publicClient,
    owner,
    entryPoint: { address: entryPoint07Address, version: '0.7' },
  })
  const tokens = await deployTestTokens(aa.rpcUrl, { mintTo: account.address })
  const client = createSmartAccountClient({
    account,
    chain: aa.chain,
    bundlerTransport: http(aa.bundlerUrl),
    client: publicClient,
    paymaster: sponsor,
    pollingInterval: 50,
  } as never) as unknown as RouteSmartAccountClient
  return { account, tokens, client }
}

function tokenBalance(tokens: TestTokens, address: Address) {
  return publicClient.readContract({
    ...tokens.erc20,
    functionName: 'balanceOf',
    args: [address],
  }) as Promise<bigint>
}

function paymasterDeposit() {
  return publicClient.readContract({
    address: aa.entryPoint.address,
    abi: accountAbstractionAbis.entryPoint(),
    functionName: 'balanceOf',
    args: [paymaster.address],
  }) as Promise<bigint>
}

const transfer = (tokens: TestTokens, to: Address, amount: bigint) => ({
  to: tokens.erc20.address,
  data: encodeFunctionData({ abi: tokens.erc20.abi, functionName: 'transfer', args: [to, amount] }),
})

describe('sponsored gas (VerifyingPaymaster v0.7)', { timeout: 60_000 }, () => {
  test('a wallet holding 0 ETH is deployed and transfers tokens; the paymaster pays', async () => {
    const sponsor = createVerifyingPaymaster({ address: paymaster.address, signer: sponsorKey })
    const { account, tokens, client } = await newTokenHolder(sponsor)
    const recipient = privateKeyToAccount(generatePrivateKey()).address
    expect(await publicClient.getBalance({ address: account.address })).toBe(0n)
    const depositBefore = await paymasterDeposit()

    const receipt = await sendCalls(client, [transfer(tokens, recipient, 250_000_000n)])

    expect(receipt.success).toBe(true)
    expect(receipt.paymaster).toBe(paymaster.address)
    expect(await tokenBalance(tokens, recipient)).toBe(250_000_000n)
    expect(await tokenBalance(tokens, account.address)).toBe(750_000_000n)
    expect(await account.isDeployed()).toBe(true)
    // Still no ETH: gas came out of the paymaster's EntryPoint deposit.
    expect(await publicClient.getBalance({ address: account.address })).toBe(0n)
    expect(await paymasterDeposit()).toBe(depositBefore - receipt.actualGasCost)
  })

  test('signs the hash the deployed paymaster computes on-chain', async () => {
    const { account } = await newTokenHolder(
      createVerifyingPaymaster({ address: paymaster.address, signer: sponsorKey }),
    )
    const { factory, factoryData } = await account.getFactoryArgs()
    const userOperation = {
      sender: account.address,
      nonce: 7n,
      factory,
      factoryData,
      callData: '0x1234' as const,
      callGasLimit: 50_000n,
      verificationGasLimit: 400_000n,
      preVerificationGas: 60_000n,
      maxFeePerGas: 3_000_000_000n,
      maxPriorityFeePerGas: 1_000_000_000n,
      paymasterVerificationGasLimit: 100_000n,
      paymasterPostOpGasLimit: 5n,
    }
    const [validUntil, validAfter] = [1_900_000_000, 1_700_000_000]
    const packed = toPackedUserOperation({
      ...userOperation,
      signature: '0x',
      paymaster: paymaster.address,
      paymasterData: '0xdeadbeef',
    })
    const onChain = await publicClient.readContract({
      ...paymaster,
      functionName: 'getHash',
      args: [packed, validUntil, validAfter],
    })
    expect(
      getVerifyingPaymasterHash({
        userOperation,
        chainId: aa.chain.id,
        paymaster: paymaster.address,
        validUntil,
        validAfter,
      }),
    ).toBe(onChain)
  })

  test('the EntryPoint refuses sponsorship signed by a key that is not the paymaster’s signer', async () => {
    const impostor = createVerifyingPaymaster({
      address: paymaster.address,
      signer: privateKeyToAccount(generatePrivateKey()),
    })
    const { account, tokens, client } = await newTokenHolder(impostor)
    const recipient = privateKeyToAccount(generatePrivateKey()).address
    const depositBefore = await paymasterDeposit()

    await expect(sendCalls(client, [transfer(tokens, recipient, 1n)])).rejects.toThrow(
      /AA34 signature error/,
    )

    expect(await tokenBalance(tokens, recipient)).toBe(0n)
    expect(await account.isDeployed()).toBe(false)
    expect(await paymasterDeposit()).toBe(depositBefore)
  })
})
