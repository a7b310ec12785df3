// Sponsored gas for an EIP-7702 account: the VerifyingPaymaster compiled for
// EntryPoint v0.8, with real peers (Anvil on Prague + EntryPoint v0.8 +
// Simple7702Account + Alto, @latchkey/server/test/account-abstraction).
import { deployTestTokens, type TestTokens } from '@latchkey/server/test/chains'
import {
  type Address,
  concat,
  encodeFunctionData,
  type Hex,
  http,
  recoverMessageAddress,
} from 'viem'
import {
  createBundlerClient,
  entryPoint07Address,
  toPackedUserOperation,
  toSimple7702SmartAccount,
} from 'viem/account-abstraction'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { signAuthorization } from 'viem/actions'
import { beforeAll, describe, expect, test } from 'vitest'
import {
  type Paymaster08Fixture,
  paymaster08Fixture,
} from './verifying-paymaster-08.test-helper.ts'
import {
  createVerifyingPaymaster08,
  getVerifyingPaymaster08Hash,
  signVerifyingPaymaster08Data,
} from './verifying-paymaster-08.ts'

let aa: Paymaster08Fixture['aa']
let publicClient: Paymaster08Fixture['publicClient']
let paymaster: Paymaster08Fixture['paymaster']
let implementation: Paymaster08Fixture['implementation']
let sponsorKey: Paymaster08Fixture['sponsorKey']

beforeAll(async () => {
  ;({ aa, publicClient, paymaster, implementation, sponsorKey } = await paymaster08Fixture())
}, 120_000)

const deposit = () =>
  publicClient.readContract({ ...paymaster, functionName: 'getDeposit' }) as Promise<bigint>

const tokenBalance = (tokens: TestTokens, address: Address) =>
  publicClient.readContract({
    ...tokens.erc20,
    functionName: 'balanceOf',
    args: [address],
  }) as Promise<bigint>

const transfer = (tokens: TestTokens, to: Address, amount: bigint) => ({
  to: tokens.erc20.address,
  data: encodeFunctionData({ abi: tokens.erc20.abi, functionName: 'transfer', args: [to, amount] }),
})

describe('sponsored gas for EIP-7702 accounts (VerifyingPaymaster on EntryPoint v0.8)', {
  timeout: 60_000,
}, () => {
  test('an EOA holding 0 ETH is upgraded and transfers tokens in one sponsored operation; the deposit pays', async () => {
    const owner = privateKeyToAccount(generatePrivateKey())
    const tokens = await deployTestTokens(aa.rpcUrl, { mintTo: owner.address })
    const account = await toSimple7702SmartAccount({ client: publicClient, owner, implementation })
    const bundler = createBundlerClient({
      account,
      client: publicClient,
      transport: http(aa.bundlerUrl),
      paymaster: createVerifyingPaymaster08({ address: paymaster.address, signer: sponsorKey }),
      pollingInterval: 50,
    })
    const recipient = privateKeyToAccount(generatePrivateKey()).address
    expect(await publicClient.getBalance({ address: owner.address })).toBe(0n)
    expect(await publicClient.getCode({ address: owner.address })).toBeUndefined()
    const before = await deposit()
    // EIP-7702: the bundler's transaction applies it, so the EOA's nonce as it is now.
    const authorization = await signAuthorization(publicClient, {
      account: owner,
      contractAddress: implementation,
      nonce: await publicClient.getTransactionCount({ address: owner.address }),
    })

    const hash = await bundler.sendUserOperation({
      calls: [transfer(tokens, recipient, 250_000_000n)],
      authorization,
    })
    const receipt = await bundler.waitForUserOperationReceipt({ hash })

    expect(receipt.success).toBe(true)
    expect(receipt.sender).toBe(owner.address)
    expect(receipt.paymaster).toBe(paymaster.address)
    expect(await publicClient.getCode({ address: owner.address })).toBe(
      concat(['0xef0100', implementation]).toLowerCase(),
    )
    expect(await tokenBalance(tokens, recipient)).toBe(250_000_000n)
    expect(await tokenBalance(tokens, owner.address)).toBe(750_000_000n)
    expect(await publicClient.getBalance({ address: owner.address })).toBe(0n)
    expect(await deposit()).toBe(before - receipt.actualGasCost)

    // Upgraded now: the next operation carries no authorization (empty initCode) and is sponsored too.
    const next = await bundler.waitForUserOperationReceipt({
      hash: await bundler.sendUserOperation({ calls: [transfer(tokens, recipient, 1n)] }),
    })
    expect(next.success).toBe(true)
    expect(next.paymaster).toBe(paymaster.address)
    expect(await tokenBalance(tokens, recipient)).toBe(250_000_001n)
    expect(await publicClient.getBalance({ address: owner.address })).toBe(0n)
  })

  test('does not sign for another EntryPoint (its contract would refuse the call anyway)', async () => {
    const sponsor = createVerifyingPaymaster08({ address: paymaster.address, signer: sponsorKey })
    await expect(
      sponsor.getPaymasterData({
        chainId: aa.chain.id,
        entryPointAddress: entryPoint07Address,
        sender: sponsorKey.address,
        nonce: 0n,
        callData: '0x',
        callGasLimit: 50_000n,
        verificationGasLimit: 100_000n,
        preVerificationGas: 50_000n,
        maxFeePerGas: 1n,
        maxPriorityFeePerGas: 1n,
      }),
    ).rejects.toThrow(/serves EntryPoint 0x4337084D9E255Ff0702461CF8895CE9E3b5Ff108/)
  })

  test.each([
    ['the EIP-7702 marker as initCode (first operation)', '0x7702'],
    ['an empty initCode (already upgraded)', undefined],
  ] as const)('signs the hash the deployed paymaster computes, with %s', async (_, factory) => {
    const userOperation = {
      sender: privateKeyToAccount(generatePrivateKey()).address,
      nonce: 7n,
      ...(factory ? { factory, factoryData: '0x' as Hex } : {}),
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
    const parameters = {
      userOperation,
      chainId: aa.chain.id,
      paymaster: paymaster.address,
      validUntil,
      validAfter,
    }
    const paymasterData = await signVerifyingPaymaster08Data({ ...parameters, signer: sponsorKey })
    // As the bundler packs it (viem's packing: initCode = factory ++ factoryData).
    const packed = toPackedUserOperation({
      ...userOperation,
      signature: '0x',
      paymaster: paymaster.address,
      paymasterData,
    })

    const onChain = (await publicClient.readContract({
      ...paymaster,
      functionName: 'getHash',
      args: [packed, validUntil, validAfter],
    })) as Hex
    expect(getVerifyingPaymaster08Hash(parameters)).toBe(onChain)

    // The contract reads the window and the signature back out of paymasterAndData.
    const [parsedUntil, parsedAfter, signature] = (await publicClient.readContract({
      ...paymaster,
      functionName: 'parsePaymasterAndData',
      args: [packed.paymasterAndData],
    })) as [number, number, Hex]
    expect([parsedUntil, parsedAfter]).toEqual([validUntil, validAfter])
    expect(await recoverMessageAddress({ message: { raw: onChain }, signature })).toBe(
      sponsorKey.address,
    )
  })
})
