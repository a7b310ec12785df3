import { type Address, encodeFunctionData } from 'viem'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { afterAll, beforeAll, expect, it } from 'vitest'
import {
  type AccountAbstractionChain,
  accountAbstractionAbis,
  sharedAccountAbstractionChain,
} from '../test/account-abstraction/index.ts'
import { deployTestTokens, type TestTokens } from '../test/chains.ts'
import { getTestInstance, type TestInstance } from '../test/instance.ts'
import {
  publicClientOf,
  sendCalls,
  sponsorOnChain,
  userWithSmartAccount,
} from './paymaster.test-helper.ts'

// Sponsored gas end to end, with real peers (Anvil, EntryPoint v0.7, Alto):
// a user whose smart account never held ETH sends a token transfer through
// the server's route only — the bundler reached through our relay, the
// paymaster data signed by the app's sealed signer under its policy. The
// first operation deploys the account; the paymaster's deposit pays; the
// server recorded the sponsorship at its max cost.
let aa: AccountAbstractionChain
let t: TestInstance
let paymaster: Address
beforeAll(async () => {
  aa = await sharedAccountAbstractionChain()
  t = await getTestInstance()
  ;({ paymaster } = await sponsorOnChain(t, aa))
}, 120_000)
afterAll(async () => {
  await t?.close()
  await aa?.stop()
})

const transfer = (tokens: TestTokens, to: Address, amount: bigint) => ({
  to: tokens.erc20.address,
  data: encodeFunctionData({ abi: tokens.erc20.abi, functionName: 'transfer', args: [to, amount] }),
})

it('deploys a 0 ETH account on its first sponsored send and transfers; the paymaster pays', {
  timeout: 60_000,
}, async () => {
  const publicClient = publicClientOf(aa)
  const { client, userId } = await userWithSmartAccount(t, aa, 'sponsored@example.com')
  const sender = client.account.address
  const tokens = await deployTestTokens(aa.rpcUrl, { mintTo: sender })
  const recipient = privateKeyToAccount(generatePrivateKey()).address
  const deposit = () =>
    publicClient.readContract({
      address: aa.entryPoint.address,
      abi: accountAbstractionAbis.entryPoint(),
      functionName: 'balanceOf',
      args: [paymaster],
    }) as Promise<bigint>
  const balanceOf = (address: Address) =>
    publicClient.readContract({
      ...tokens.erc20,
      functionName: 'balanceOf',
      args: [address],
    }) as Promise<bigint>
  expect(await publicClient.getBalance({ address: sender })).toBe(0n)
  expect(await client.account.isDeployed()).toBe(false)
  const depositBefore = await deposit()

  const receipt = await sendCalls(client, [transfer(tokens, recipient, 250_000_000n)])

  expect(receipt.success).toBe(true)
  expect(receipt.paymaster).toBe(paymaster)
  expect(await client.account.isDeployed()).toBe(true)
  expect(await balanceOf(recipient)).toBe(250_000_000n)
  expect(await publicClient.getBalance({ address: sender })).toBe(0n)
  expect(await deposit()).toBe(depositBefore - receipt.actualGasCost)

  // A second operation: no deployment this time, sponsored again.
  const second = await sendCalls(client, [transfer(tokens, recipient, 1n)])
  expect(second.success).toBe(true)
  expect(await balanceOf(recipient)).toBe(250_000_001n)

  const rows = await t.db
    .selectFrom('sponsored_operations')
    .selectAll()
    .where('user_id', '=', userId)
    .orderBy('created_at')
    .execute()
  // One row per operation (permissionless picks a new nonce key per send).
  expect(rows).toHaveLength(2)
  for (const row of rows)
    expect([row.sender, Number(row.chain_id)]).toEqual([sender.toLowerCase(), aa.chain.id])
  expect(new Set(rows.map((row) => row.nonce)).size).toBe(2)
  // The max cost reserved bounds what the EntryPoint took.
  expect(BigInt(rows[0]?.max_cost ?? 0)).toBeGreaterThanOrEqual(receipt.actualGasCost)
})
