// A sponsorship is good only inside its window: the v0.8 VerifyingPaymaster
// returns validUntil to the EntryPoint, which refuses an operation whose
// sponsorship has lapsed (AA32) before anything runs or is charged.
// Real peers: Anvil + EntryPoint v0.8 + Alto.
import { http } from 'viem'
import { createBundlerClient, toSimple7702SmartAccount } from 'viem/account-abstraction'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { signAuthorization } from 'viem/actions'
import { beforeAll, expect, test } from 'vitest'
import {
  type Paymaster08Fixture,
  paymaster08Fixture,
} from './verifying-paymaster-08.test-helper.ts'
import { createVerifyingPaymaster08 } from './verifying-paymaster-08.ts'

let aa: Paymaster08Fixture['aa']
let publicClient: Paymaster08Fixture['publicClient']
let paymaster: Paymaster08Fixture['paymaster']
let implementation: Paymaster08Fixture['implementation']
let sponsorKey: Paymaster08Fixture['sponsorKey']

beforeAll(async () => {
  ;({ aa, publicClient, paymaster, implementation, sponsorKey } = await paymaster08Fixture())
}, 120_000)

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
