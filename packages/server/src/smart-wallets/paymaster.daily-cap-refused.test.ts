import { encodeFunctionData } from 'viem'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { afterAll, beforeAll, expect, it } from 'vitest'
import {
  type AccountAbstractionChain,
  sharedAccountAbstractionChain,
} from '../test/account-abstraction/index.ts'
import { deployTestTokens } from '../test/chains.ts'
import { getTestInstance, type TestInstance } from '../test/instance.ts'
import { sendCalls, sponsorOnChain, userWithSmartAccount } from './paymaster.test-helper.ts'

// The per-user daily operations cap, with real peers: a cap of 2 sponsors
// two operations of a user, refuses the third (JSON-RPC -32005
// SPONSORSHIP_DAILY_CAP_REACHED) without sending it, and leaves other users
// their own 2; 24 hours later the user is sponsored again.
let aa: AccountAbstractionChain
let t: TestInstance
beforeAll(async () => {
  aa = await sharedAccountAbstractionChain()
  t = await getTestInstance()
  await sponsorOnChain(t, aa, { max_operations_per_user_per_day: 2 })
}, 120_000)
afterAll(async () => {
  await t?.close()
  await aa?.stop()
})

it('sponsors two operations per user and day, refuses the third', { timeout: 90_000 }, async () => {
  const alice = await userWithSmartAccount(t, aa, 'cap-alice@example.com')
  const tokens = await deployTestTokens(aa.rpcUrl, { mintTo: alice.client.account.address })
  const recipient = privateKeyToAccount(generatePrivateKey()).address
  const call = {
    to: tokens.erc20.address,
    data: encodeFunctionData({
      abi: tokens.erc20.abi,
      functionName: 'transfer',
      args: [recipient, 1n],
    }),
  }
  expect((await sendCalls(alice.client, [call])).success).toBe(true)
  expect((await sendCalls(alice.client, [call])).success).toBe(true)
  await expect(sendCalls(alice.client, [call])).rejects.toThrow(
    'The app sponsors at most 2 operations per user in 24 hours.',
  )
  expect(await t.countRows('sponsored_operations')).toBe(2)

  // Another user has a cap of their own (a deployment is an operation too).
  const bob = await userWithSmartAccount(t, aa, 'cap-bob@example.com')
  expect((await sendCalls(bob.client, [{ to: recipient }])).success).toBe(true)

  t.clock.advance(24 * 60 * 60_000)
  await alice.login()
  expect((await sendCalls(alice.client, [call])).success).toBe(true)
})
