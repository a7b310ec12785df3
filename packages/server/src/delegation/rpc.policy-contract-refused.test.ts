import { afterAll, beforeAll, expect, it } from 'vitest'
import { getTestInstance, type TestInstance } from '../test/instance.ts'
import { delegate, rpc, setPolicy, userWithRealWallet, walletIdOf } from './testing.ts'

// The policy's contract list bounds where delegated transactions go: any
// other `to` is 403 DELEGATION_POLICY_VIOLATION (rule 'contract'), whatever
// its letter case; a listed one is signed. Methods outside the list are
// refused too (rule 'method').
let t: TestInstance
let walletId: string
const ALLOWED = '0x1111111111111111111111111111111111111111'
beforeAll(async () => {
  t = await getTestInstance()
  const user = await userWithRealWallet(t, 'contracts@example.com')
  expect((await delegate(t, user)).status).toBe(200)
  walletId = await walletIdOf(t, user.userId, user.wallet.ethereum)
  await setPolicy(t, { contracts: [ALLOWED], methods: ['eth_signTransaction'] })
})
afterAll(() => t.close())

const tx = (to: string) =>
  rpc(t, walletId, {
    method: 'eth_signTransaction',
    caip2: 'eip155:1',
    params: {
      transaction: {
        to,
        data: '0xa9059cbb',
        nonce: 3,
        gas_limit: 60000,
        max_fee_per_gas: 2_000_000_000,
        max_priority_fee_per_gas: 1,
      },
    },
  })

it('another contract is refused', async () => {
  expect(await tx('0x2222222222222222222222222222222222222222')).toMatchObject({
    status: 403,
    body: { code: 'DELEGATION_POLICY_VIOLATION', details: { rule: 'contract' } },
  })
})

it('the listed contract is signed, in any letter case', async () => {
  expect((await tx(ALLOWED)).status).toBe(200)
  expect((await tx(ALLOWED.toUpperCase().replace('0X', '0x'))).status).toBe(200)
})

it('a method outside the list is refused', async () => {
  const res = await rpc(t, walletId, { method: 'personal_sign', params: { message: 'x' } })
  expect(res).toMatchObject({
    status: 403,
    body: { code: 'DELEGATION_POLICY_VIOLATION', details: { rule: 'method' } },
  })
})
