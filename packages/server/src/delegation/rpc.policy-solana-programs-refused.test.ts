import { base58 } from '@scure/base'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { getTestInstance, type TestInstance } from '../test/instance.ts'
import { delegate, rpc, setPolicy, userWithRealWallet, walletIdOf } from './testing.ts'

// The policy's `contracts` bound Solana transactions too: every program the
// transaction's instructions invoke must be listed (base58, case kept), or
// it is 403 DELEGATION_POLICY_VIOLATION (rule 'contract') and nothing is
// signed. A transaction without instructions invokes nothing; bytes that
// are no transaction are 400. Without a contract list, any program goes.
const SYSTEM_PROGRAM = '11111111111111111111111111111111'
const TOKEN_PROGRAM = 'TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA'
const MEMO_PROGRAM = 'MemoSq4gqABAXKb96qnH8TysNcWxMyWCqXgDLGmfcHr'
let t: TestInstance
let user: Awaited<ReturnType<typeof userWithRealWallet>>
let walletId: string
beforeAll(async () => {
  t = await getTestInstance()
  user = await userWithRealWallet(t, 'solana-programs@example.com')
  expect((await delegate(t, user, 'solana')).status).toBe(200)
  await setPolicy(t, { contracts: [SYSTEM_PROGRAM, TOKEN_PROGRAM] })
  walletId = await walletIdOf(t, user.userId, user.wallet.solana)
})
afterAll(() => t.close())

/** A legacy transaction the wallet signs, with one empty instruction per program. */
function transaction(programs: string[]): string {
  const keys = [user.wallet.solanaPublicKey, ...programs.map((p) => base58.decode(p))]
  const message = [
    ...[1, 0, programs.length], // header: the wallet signs; the programs are read-only
    keys.length,
    ...keys.flatMap((key) => [...key]),
    ...new Uint8Array(32).fill(7), // blockhash
    programs.length,
    ...programs.flatMap((_, i) => [i + 1, 0, 0]), // program index, no accounts, no data
  ]
  return Buffer.from([1, ...new Uint8Array(64), ...message]).toString('base64')
}

const sign = (programs: string[]) =>
  rpc(t, walletId, { method: 'signTransaction', params: { transaction: transaction(programs) } })

it('signs a transaction that invokes listed programs only', async () => {
  expect((await sign([SYSTEM_PROGRAM, TOKEN_PROGRAM])).status).toBe(200)
  expect((await sign([])).status).toBe(200)
})

it('refuses a transaction that invokes a program not listed, even beside listed ones', async () => {
  for (const programs of [[MEMO_PROGRAM], [SYSTEM_PROGRAM, MEMO_PROGRAM]])
    expect(await sign(programs)).toMatchObject({
      status: 403,
      body: { code: 'DELEGATION_POLICY_VIOLATION', details: { rule: 'contract' } },
    })
})

it('refuses bytes that are no transaction with 400', async () => {
  const res = await rpc(t, walletId, {
    method: 'signTransaction',
    params: { transaction: Buffer.from([1, 2, 3]).toString('base64') },
  })
  expect(res).toMatchObject({ status: 400, body: { code: 'INVALID_PAYLOAD' } })
})

it('without a contract list, any program goes', async () => {
  await setPolicy(t, { contracts: null })
  expect((await sign([MEMO_PROGRAM])).status).toBe(200)
})
