import { afterAll, beforeAll, expect, it } from 'vitest'
import { getTestInstance, type TestInstance } from '../test/instance.ts'
import { delegate, rpc, setPolicy, userWithRealWallet, walletIdOf } from './testing.ts'

// The daily cap holds under concurrency: the check and the ledger write are
// one step (a 'pending' row reserved in a transaction that holds the wallet's
// delegation row on PostgreSQL, the write lock on SQLite), so requests sent
// together cannot all pass a cap they only reach together. Five sends of 60
// wei against a 100 wei cap: exactly one is signed, four are 429, and the
// log holds one signed and four refused rows, none left pending.
let t: TestInstance
let walletId: string
beforeAll(async () => {
  t = await getTestInstance()
  const user = await userWithRealWallet(t, 'cap-race@example.com')
  expect((await delegate(t, user)).status).toBe(200)
  walletId = await walletIdOf(t, user.userId, user.wallet.ethereum)
  await setPolicy(t, { maxValuePerDay: 100n })
})
afterAll(() => t.close())

const tx = (nonce: number) =>
  rpc(t, walletId, {
    method: 'eth_signTransaction',
    caip2: 'eip155:1',
    params: {
      transaction: {
        to: '0x000000000000000000000000000000000000bEEF',
        value: 60,
        nonce,
        gas_limit: 21000,
        max_fee_per_gas: 1_000_000_000,
        max_priority_fee_per_gas: 1,
      },
    },
  })

it('five concurrent sends of 60 wei under a 100 wei cap: one signed, four refused', async () => {
  const results = await Promise.all([0, 1, 2, 3, 4].map(tx))
  const statuses = results.map((r) => r.status).sort()
  expect(statuses).toEqual([200, 429, 429, 429, 429])
  for (const refused of results.filter((r) => r.status === 429))
    expect(refused.body).toMatchObject({ code: 'DELEGATION_DAILY_CAP_REACHED' })

  const rows = await t.db
    .selectFrom('delegated_actions')
    .select(['outcome', 'value', 'refusal_code'])
    .execute()
  expect(rows.filter((r) => r.outcome === 'signed')).toEqual([
    { outcome: 'signed', value: '60', refusal_code: null },
  ])
  expect(rows.filter((r) => r.outcome === 'refused')).toHaveLength(4)
  expect(rows.filter((r) => r.outcome === 'pending')).toHaveLength(0)
})
