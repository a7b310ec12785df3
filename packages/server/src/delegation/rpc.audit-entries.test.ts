import { routes } from '@latchkey/protocol'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { getTestInstance, type TestInstance } from '../test/instance.ts'
import { delegate, rpc, setPolicy, userWithRealWallet, walletIdOf } from './testing.ts'

// Every server-side signature attempt on a wallet of the app leaves an audit
// row, signed or refused (with its code); the user lists theirs, newest
// first, a page at a time, and sees no other user's.
let t: TestInstance
let user: Awaited<ReturnType<typeof userWithRealWallet>>
let other: Awaited<ReturnType<typeof userWithRealWallet>>
let walletId: string
const TO = '0x000000000000000000000000000000000000beef'
beforeAll(async () => {
  t = await getTestInstance()
  user = await userWithRealWallet(t, 'audited@example.com')
  other = await userWithRealWallet(t, 'bystander@example.com')
  expect((await delegate(t, user)).status).toBe(200)
  expect((await delegate(t, other)).status).toBe(200)
  await setPolicy(t, { maxValuePerTx: 10n })
  walletId = await walletIdOf(t, user.userId, user.wallet.ethereum)
})
afterAll(() => t.close())

const tx = (value: number) =>
  rpc(t, walletId, {
    method: 'eth_signTransaction',
    caip2: 'eip155:1',
    params: {
      transaction: {
        to: TO,
        value,
        nonce: 0,
        gas_limit: 21000,
        max_fee_per_gas: 1_000_000_000,
        max_priority_fee_per_gas: 1,
      },
    },
  })

it('records signed and refused attempts, and the user lists them newest first', async () => {
  const signed = await rpc(t, walletId, { method: 'personal_sign', params: { message: 'one' } })
  expect(signed.status).toBe(200)
  t.clock.advance(1000)
  expect((await tx(11)).status).toBe(403)
  t.clock.advance(1000)
  expect((await tx(5)).status).toBe(200)
  const otherId = await walletIdOf(t, other.userId, other.wallet.ethereum)
  expect(
    (await rpc(t, otherId, { method: 'personal_sign', params: { message: 'b' } })).status,
  ).toBe(200)

  const res = await t.request(routes.embeddedWalletsDelegatedActions, { token: user.token })
  expect(res.status).toBe(200)
  expect(res.body.next_cursor).toBeNull()
  expect(res.body.data).toHaveLength(3)
  const [newest, refused, oldest] = res.body.data
  expect(newest).toMatchObject({
    method: 'eth_signTransaction',
    outcome: 'signed',
    caip2: 'eip155:1',
    to: TO,
    value: '5',
    refusal_code: null,
    chain_type: 'ethereum',
  })
  expect(newest.result).toMatch(/^0x[0-9a-f]{64}$/)
  expect(refused).toMatchObject({
    method: 'eth_signTransaction',
    outcome: 'refused',
    refusal_code: 'DELEGATION_POLICY_VIOLATION',
    value: '11',
    result: null,
  })
  expect(oldest).toMatchObject({ method: 'personal_sign', outcome: 'signed', caip2: null })
  // Only a prefix of the signature is kept.
  expect(oldest.result.length).toBeLessThan(signed.body.data.signature.length)
  expect(signed.body.data.signature.startsWith(oldest.result)).toBe(true)
  for (const row of res.body.data) expect(row.address).toBe(user.wallet.ethereum.toLowerCase())
})

it('pages with a cursor', async () => {
  const first = await t.request(`${routes.embeddedWalletsDelegatedActions}?limit=2`, {
    token: user.token,
  })
  expect(first.body.data).toHaveLength(2)
  expect(first.body.next_cursor).toEqual(expect.any(String))
  const second = await t.request(
    `${routes.embeddedWalletsDelegatedActions}?limit=2&cursor=${first.body.next_cursor}`,
    { token: user.token },
  )
  expect(second.body.data).toHaveLength(1)
  expect(second.body.data[0].method).toBe('personal_sign')
  expect(second.body.next_cursor).toBeNull()
})

it('needs the user’s session', async () => {
  expect((await t.request(routes.embeddedWalletsDelegatedActions)).status).toBe(401)
})
