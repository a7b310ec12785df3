import { afterAll, beforeAll, expect, it } from 'vitest'
import { runCli } from '../cli.ts'
import { getTestInstance, type TestInstance } from '../test/instance.ts'
import { delegate, rpc, userWithRealWallet, walletIdOf } from './testing.ts'

// `latchkey apps delegation-policy set|show|clear`: the operator opts the app
// in to delegated actions and bounds them; a running server applies the
// policy at the next request; malformed flags are refused with a message.
const TOKEN_PROGRAM = 'TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA'
let t: TestInstance
let walletId: string
beforeAll(async () => {
  t = await getTestInstance()
  const user = await userWithRealWallet(t, 'cli@example.com')
  expect((await delegate(t, user)).status).toBe(200)
  walletId = await walletIdOf(t, user.userId, user.wallet.ethereum)
})
afterAll(() => t.close())

async function cli(...argv: string[]) {
  const out: string[] = []
  const err: string[] = []
  const code = await runCli(argv, {
    db: t.db,
    env: {},
    out: (line) => out.push(line),
    err: (line) => err.push(line),
  })
  return { code, out: out.join('\n'), err: err.join('\n') }
}

const sign = () => rpc(t, walletId, { method: 'personal_sign', params: { message: 'x' } })

it('show says there is none, and requests are refused', async () => {
  const shown = await cli('apps', 'delegation-policy', 'show', t.app.id)
  expect(shown).toMatchObject({ code: 0 })
  expect(shown.out).toContain('No delegation policy')
  expect((await sign()).status).toBe(403)
})

it('set stores the policy and the server applies it', async () => {
  const set = await cli(
    'apps',
    'delegation-policy',
    'set',
    t.app.id,
    '--chains',
    'eip155:31337,eip155:8453',
    '--contracts',
    // An Ethereum address (lowercased) and a Solana program id (base58: case kept).
    `0x${'A'.repeat(40)},${TOKEN_PROGRAM}`,
    '--methods',
    'personal_sign,eth_sendTransaction',
    '--max-value-per-tx',
    '1000',
    '--max-value-per-day',
    '5000',
  )
  expect(set.code).toBe(0)
  const shown = await cli('apps', 'delegation-policy', 'show', t.app.id, '--json')
  expect(JSON.parse(shown.out)).toEqual({
    chains: ['eip155:31337', 'eip155:8453'],
    contracts: [`0x${'a'.repeat(40)}`, TOKEN_PROGRAM],
    methods: ['personal_sign', 'eth_sendTransaction'],
    max_value_per_tx: '1000',
    max_value_per_day: '5000',
  })
  expect((await sign()).status).toBe(200)
})

it('refuses malformed flags and an unknown app', async () => {
  for (const argv of [
    ['--chains', 'mainnet'],
    ['--contracts', '0x12'],
    ['--contracts', 'Tokenkeg0O'],
    ['--methods', 'eth_sign'],
    ['--max-value-per-tx', '1.5'],
  ]) {
    const res = await cli('apps', 'delegation-policy', 'set', t.app.id, ...argv)
    expect({ argv, code: res.code }).toEqual({ argv, code: 1 })
    expect(res.err).not.toBe('')
  }
  expect((await cli('apps', 'delegation-policy', 'show', 'nosuchapp')).code).toBe(1)
})

it('clear removes it and requests are refused again', async () => {
  expect((await cli('apps', 'delegation-policy', 'clear', t.app.id)).code).toBe(0)
  expect(await sign()).toMatchObject({ status: 403, body: { details: { rule: 'policy' } } })
})
