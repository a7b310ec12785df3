import { type Address, getAddress } from 'viem'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { getTestInstance, type TestInstance } from '../test/instance.ts'
import {
  linkSmartWalletRow,
  paymasterParams,
  RPC_USER_OPERATION_MAX_COST,
  rpcUserOperation,
  setSmartWallets,
  smartWalletRpcRequest,
  startRecordingPeer,
} from './paymaster.test-helper.ts'
import { ensurePaymasterSigner } from './paymaster-key.ts'
import type { SponsorshipPolicy } from './settings.ts'

// The daily caps hold under concurrency: the check and the ledger write are
// one step (the user's row held on PostgreSQL, the write lock on SQLite), so
// requests sent together cannot all pass a cap they only reach together.
// Five pm_getPaymasterData for five operations against a cap of two: two
// are signed, three refused, and the ledger holds exactly two rows. The
// same for the gas-cost cap. Asking again for an operation already signed
// replaces its row: it is not counted twice.
const CHAIN = 8453
let t: TestInstance
let bundler: Awaited<ReturnType<typeof startRecordingPeer>>
let token: string
let sender: Address
beforeAll(async () => {
  t = await getTestInstance()
  bundler = await startRecordingPeer()
  const auth = await t.login('race@example.com')
  token = auth.token ?? ''
  sender = getAddress(privateKeyToAccount(generatePrivateKey()).address)
  await linkSmartWalletRow(t, auth.user.id, sender)
  await ensurePaymasterSigner(t.server.services, t.app.id)
})
afterAll(async () => {
  await t.close()
  await bundler.close()
})

async function withPolicy(policy: SponsorshipPolicy) {
  await t.db.deleteFrom('sponsored_operations').execute()
  await setSmartWallets(t, {
    enabled: true,
    type: 'simple',
    chains: [
      {
        // Asked for its gas price only (gas-price-ceiling.ts).
        chain_id: CHAIN,
        bundler_url: bundler.url,
        paymaster: { kind: 'server', address: privateKeyToAccount(generatePrivateKey()).address },
      },
    ],
    sponsorship_policy: policy,
  })
}

const sponsor = (nonce: bigint) =>
  smartWalletRpcRequest(t, {
    token,
    chainId: CHAIN,
    method: 'pm_getPaymasterData',
    params: paymasterParams(rpcUserOperation(sender, nonce), CHAIN),
  })

async function race() {
  const answers = await Promise.all([0n, 1n, 2n, 3n, 4n].map(sponsor))
  for (const answer of answers) expect(answer.status).toBe(200)
  const signed = answers.filter((a) => a.body.result)
  const refused = answers.filter((a) => a.body.error)
  return { signed, refused }
}

it('five concurrent operations under a cap of two operations: two signed, three refused', async () => {
  await withPolicy({ max_operations_per_user_per_day: 2 })
  const { signed, refused } = await race()
  expect(signed).toHaveLength(2)
  expect(refused).toHaveLength(3)
  for (const answer of refused)
    expect(answer.body.error).toMatchObject({
      code: -32005,
      data: { code: 'SPONSORSHIP_DAILY_CAP_REACHED', rule: 'max_operations_per_user_per_day' },
    })
  expect(await t.countRows('sponsored_operations')).toBe(2)
})

it('five concurrent operations under a gas cost cap of two and a half: two signed', async () => {
  const cap = (RPC_USER_OPERATION_MAX_COST * 5n) / 2n
  await withPolicy({ max_gas_cost_per_user_per_day: cap.toString() })
  const { signed, refused } = await race()
  expect(signed).toHaveLength(2)
  for (const answer of refused)
    expect(answer.body.error.data).toMatchObject({ rule: 'max_gas_cost_per_user_per_day' })
  const rows = await t.db.selectFrom('sponsored_operations').select('max_cost').execute()
  expect(rows).toEqual([
    { max_cost: RPC_USER_OPERATION_MAX_COST.toString() },
    { max_cost: RPC_USER_OPERATION_MAX_COST.toString() },
  ])
})

it('signing the same operation again replaces its row', async () => {
  await withPolicy({ max_operations_per_user_per_day: 1 })
  expect((await sponsor(7n)).body.result).toBeDefined()
  expect((await sponsor(7n)).body.result).toBeDefined()
  expect(await t.countRows('sponsored_operations')).toBe(1)
  expect((await sponsor(8n)).body.error.data.code).toBe('SPONSORSHIP_DAILY_CAP_REACHED')
})
