// The v0.8 VerifyingPaymaster pays only for operations its own signer
// sponsored: a sponsorship signed by any other key is refused by the
// EntryPoint (AA34), and the EIP-7702 upgrade riding in the same operation
// does not happen. Real peers: Anvil + EntryPoint v0.8 + Alto.
import {
  type AccountAbstractionChain,
  deployVerifyingPaymaster08,
  sharedAccountAbstractionChain,
} from '@latchkey/server/test/account-abstraction'
import { deployTestTokens } from '@latchkey/server/test/chains'
import {
  type Abi,
  type Address,
  createPublicClient,
  encodeFunctionData,
  http,
  type PublicClient,
} from 'viem'
import { createBundlerClient, toSimple7702SmartAccount } from 'viem/account-abstraction'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { signAuthorization } from 'viem/actions'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { createVerifyingPaymaster08 } from './verifying-paymaster-08.ts'

let aa: AccountAbstractionChain
let publicClient: PublicClient
let paymaster: { address: Address; abi: Abi }
let implementation: Address
const sponsorKey = privateKeyToAccount(generatePrivateKey())

beforeAll(async () => {
  aa = await sharedAccountAbstractionChain()
  if (!aa.eip7702) throw new Error('chain started without EIP-7702 contracts')
  implementation = aa.eip7702.implementation
  publicClient = createPublicClient({
    chain: aa.chain,
    transport: http(aa.rpcUrl),
    pollingInterval: 50,
  })
  paymaster = await deployVerifyingPaymaster08(aa.deployer, { verifyingSigner: sponsorKey.address })
}, 120_000)
afterAll(() => aa?.stop())

test('a sponsorship signed by a key that is not the paymaster’s signer is refused (AA34) and nothing moves', {
  timeout: 60_000,
}, async () => {
  const owner = privateKeyToAccount(generatePrivateKey())
  const tokens = await deployTestTokens(aa.rpcUrl, { mintTo: owner.address })
  const account = await toSimple7702SmartAccount({ client: publicClient, owner, implementation })
  const impostor = createVerifyingPaymaster08({
    address: paymaster.address,
    signer: privateKeyToAccount(generatePrivateKey()),
  })
  const bundler = createBundlerClient({
    account,
    client: publicClient,
    transport: http(aa.bundlerUrl),
    paymaster: impostor,
    pollingInterval: 50,
  })
  const recipient = privateKeyToAccount(generatePrivateKey()).address
  const depositBefore = await publicClient.readContract({
    ...paymaster,
    functionName: 'getDeposit',
  })
  const authorization = await signAuthorization(publicClient, {
    account: owner,
    contractAddress: implementation,
    nonce: await publicClient.getTransactionCount({ address: owner.address }),
  })

  await expect(
    bundler.sendUserOperation({
      calls: [
        {
          to: tokens.erc20.address,
          data: encodeFunctionData({
            abi: tokens.erc20.abi,
            functionName: 'transfer',
            args: [recipient, 1n],
          }),
        },
      ],
      authorization,
    }),
  ).rejects.toThrow(/AA34 signature error/)

  expect(
    await publicClient.readContract({
      ...tokens.erc20,
      functionName: 'balanceOf',
      args: [recipient],
    }),
  ).toBe(0n)
  expect(await publicClient.getCode({ address: owner.address })).toBeUndefined()
  expect(await publicClient.readContract({ ...paymaster, functionName: 'getDeposit' })).toBe(
    depositBefore,
  )
})
