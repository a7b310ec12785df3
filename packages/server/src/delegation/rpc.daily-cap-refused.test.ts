import { afterAll, beforeAll, expect, it } from 'vitest'
import { getTestInstance, type TestInstance } from '../test/instance.ts'
import { delegate, rpc, setPolicy, userWithRealWallet, walletIdOf } from './testing.ts'

// The daily cap sums the value of the wallet's signed transactions over the
// last 24 hours: the one that would pass it is 429
// DELEGATION_DAILY_CAP_REACHED; refused attempts do not count; 24 hours after
// the first signature its value no longer counts (the test clock moves, no
// sleep). Another wallet has its own budget.
let t: TestInstance
let walletId: string
let otherWalletId: string
beforeAll(async () => {
  t = await getTestInstance()
  const user = await userWithRealWallet(t, 'cap@example.com')
  const other = await userWithRealWallet(t, 'cap-other@example.com')
  expect((await delegate(t, user)).status).toBe(200)
  expect((await delegate(t, other)).status).toBe(200)
  walletId = await walletIdOf(t, user.userId, user.wallet.ethereum)
  otherWalletId = await walletIdOf(t, other.userId, other.wallet.ethereum)
  await setPolicy(t, { maxValuePerDay: 100n })
})
afterAll(() => t.close())

let nonce = 0
const tx = (id: string, value: number) =>
  rpc(t, id, {
    method: 'eth_signTransaction',
    caip2: 'eip155:1',
    params: {
      transaction: {
        to: '0x000000000000000000000000000000000000bEEF',
        value,
        nonce: nonce++,
        gas_limit: 21000,
        max_fee_per_gas: 1_000_000_000,
        max_priority_fee_per_gas: 1,
      },
    },
  })

it('refuses the transaction that would pass the cap', async () => {
  expect((await tx(walletId, 60)).status).toBe(200)
  t.clock.advance(60 * 60_000)
  expect((await tx(walletId, 40)).status).toBe(200)
  const over = await tx(walletId, 1)
  expect(over).toMatchObject({ status: 429, body: { code: 'DELEGATION_DAILY_CAP_REACHED' } })
  // A refused attempt spends nothing: a zero-value one still goes.
  expect((await tx(walletId, 0)).status).toBe(200)
})

it("another wallet's budget is its own", async () => {
  expect((await tx(otherWalletId, 100)).status).toBe(200)
})

it('frees the first value 24 hours after it was signed', async () => {
  t.clock.advance(23 * 60 * 60_000 + 1)
  expect((await tx(walletId, 60)).status).toBe(200)
  expect(await tx(walletId, 1)).toMatchObject({ status: 429 })
})
