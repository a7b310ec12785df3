// A sponsorship is good only inside its window: the v0.8 VerifyingPaymaster
// returns validUntil to the EntryPoint, which refuses an operation whose
// sponsorship has lapsed (AA32) before anything runs or is charged.
// Real peers: Anvil + EntryPoint v0.8 + Alto.
import {
  type AccountAbstractionChain,
  deployVerifyingPaymaster08,
  sharedAccountAbstractionChain,
} from '@latchkey/server/test/account-abstraction'
import { type Abi, type Address, createPublicClient, http, type PublicClient } from 'viem'
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

test('a sponsorship signed by the right key but past its validUntil is refused (AA32): no upgrade, no charge', {
  timeout: 60_000,
}, async () => {
  const owner = privateKeyToAccount(generatePrivateKey())
  const account = await toSimple7702SmartAccount({ client: publicClient, owner, implementation })
  const { timestamp } = await publicClient.getBlock()
  const lapsed = createVerifyingPaymaster08({
    address: paymaster.address,
    signer: sponsorKey,
    // Signed an hour ago (by the chain's clock), valid for ten minutes.
    now: () => Number(timestamp) - 3_600,
  })
  const bundler = createBundlerClient({
    account,
    client: publicClient,
    transport: http(aa.bundlerUrl),
    paymaster: lapsed,
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
    bundler.sendUserOperation({ calls: [{ to: recipient, data: '0x' }], authorization }),
  ).rejects.toThrow(/AA32 paymaster expired or not due/)

  expect(await publicClient.getCode({ address: owner.address })).toBeUndefined()
  expect(await publicClient.readContract({ ...paymaster, functionName: 'getDeposit' })).toBe(
    depositBefore,
  )
})
