import { afterAll, beforeAll, expect, it } from 'vitest'
import { getTestInstance, type TestInstance } from '../test/instance.ts'
import { delegate, rpc, setPolicy, userWithRealWallet, walletIdOf } from './testing.ts'

// The app's policy names the chains delegated transactions may use: another
// chain is 403 DELEGATION_POLICY_VIOLATION (details.rule 'chain'), before any
// key is rebuilt. With no policy at all every request is refused (rule
// 'policy'): delegation is opt-in for the app's operator.
let t: TestInstance
let walletId: string
beforeAll(async () => {
  t = await getTestInstance()
  const user = await userWithRealWallet(t, 'chains@example.com')
  expect((await delegate(t, user)).status).toBe(200)
  walletId = await walletIdOf(t, user.userId, user.wallet.ethereum)
})
afterAll(() => t.close())

const tx = (caip2: string) =>
  rpc(t, walletId, {
    method: 'eth_signTransaction',
    caip2,
    params: {
      transaction: {
        to: '0x000000000000000000000000000000000000bEEF',
        value: '0x1',
        nonce: 0,
        gas_limit: 21000,
        max_fee_per_gas: '1000000000',
        max_priority_fee_per_gas: '1',
      },
    },
  })

it('without a policy, everything is refused', async () => {
  const res = await rpc(t, walletId, { method: 'personal_sign', params: { message: 'x' } })
  expect(res).toMatchObject({
    status: 403,
    body: { code: 'DELEGATION_POLICY_VIOLATION', details: { rule: 'policy' } },
  })
})

it('a chain outside the policy is refused, one inside is signed', async () => {
  await setPolicy(t, { chains: ['eip155:8453'] })
  expect(await tx('eip155:1')).toMatchObject({
    status: 403,
    body: { code: 'DELEGATION_POLICY_VIOLATION', details: { rule: 'chain' } },
  })
  const ok = await tx('eip155:8453')
  expect(ok).toMatchObject({
    status: 200,
    body: { method: 'eth_signTransaction', data: { encoding: 'rlp' } },
  })
})
