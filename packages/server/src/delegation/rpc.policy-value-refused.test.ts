import { afterAll, beforeAll, expect, it } from 'vitest'
import { getTestInstance, type TestInstance } from '../test/instance.ts'
import { delegate, rpc, setPolicy, userWithRealWallet, walletIdOf } from './testing.ts'

// A transaction worth more than the policy's max value per transaction is
// 403 DELEGATION_POLICY_VIOLATION (rule 'max_value_per_tx'); at the limit it
// is signed. Hex, decimal and number quantities are read alike.
let t: TestInstance
let walletId: string
beforeAll(async () => {
  t = await getTestInstance()
  const user = await userWithRealWallet(t, 'value@example.com')
  expect((await delegate(t, user)).status).toBe(200)
  walletId = await walletIdOf(t, user.userId, user.wallet.ethereum)
  await setPolicy(t, { maxValuePerTx: 1_000_000_000_000_000n })
})
afterAll(() => t.close())

const tx = (value: string | number) =>
  rpc(t, walletId, {
    method: 'eth_signTransaction',
    caip2: 'eip155:1',
    params: {
      transaction: {
        to: '0x000000000000000000000000000000000000bEEF',
        value,
        nonce: 0,
        gas_limit: 21000,
        max_fee_per_gas: 1_000_000_000,
        max_priority_fee_per_gas: 1,
      },
    },
  })

it('refuses one wei over the limit, in every notation', async () => {
  for (const value of ['1000000000000001', '0x38d7ea4c68001']) {
    expect(await tx(value)).toMatchObject({
      status: 403,
      body: { code: 'DELEGATION_POLICY_VIOLATION', details: { rule: 'max_value_per_tx' } },
    })
  }
})

it('signs at the limit', async () => {
  expect((await tx('1000000000000000')).status).toBe(200)
  expect((await tx('0x38d7ea4c68000')).status).toBe(200)
})
