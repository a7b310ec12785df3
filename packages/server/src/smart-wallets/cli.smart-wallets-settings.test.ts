import { afterAll, beforeAll, expect, it } from 'vitest'
import { getAppById } from '../apps/service.ts'
import { runCli } from '../cli.ts'
import { getTestInstance, type TestInstance } from '../test/instance.ts'

// `latchkey apps smart-wallets set|add-chain|remove-chain|policy|show`: the
// operator turns smart wallets on, adds chains (a bundler URL read from an
// environment variable, not the command line), sets the policy, and the
// settings are validated as `apps settings --set` validates them; malformed
// flags are refused with a message and change nothing.
const BUNDLER = 'https://bundler.example/rpc?apikey=k'
const PAYMASTER = '0x00000000000000000000000000000000000000Aa'
let t: TestInstance
beforeAll(async () => {
  t = await getTestInstance()
})
afterAll(() => t.close())

async function cli(...argv: string[]) {
  const out: string[] = []
  const err: string[] = []
  const code = await runCli(['apps', 'smart-wallets', ...argv], {
    db: t.db,
    env: { BUNDLER_URL: BUNDLER, PM_URL: 'https://pm.example/rpc' },
    out: (line) => out.push(line),
    err: (line) => err.push(line),
  })
  return { code, out: out.join('\n'), err: err.join('\n') }
}
const settings = async () => (await getAppById(t.db, t.app.id))?.settings.smart_wallets

it('sets type and switch, adds and replaces chains, sets the policy', async () => {
  expect((await cli('set', t.app.id, '--enable', '--type', 'simple')).code).toBe(0)
  expect(await settings()).toEqual({ enabled: true, type: 'simple', chains: [] })
  const add = await cli(
    'add-chain',
    t.app.id,
    '--chain-id',
    '8453',
    '--bundler-url-env',
    'BUNDLER_URL',
    '--paymaster-address',
    PAYMASTER,
  )
  expect(add.code).toBe(0)
  expect(
    (
      await cli(
        'add-chain',
        t.app.id,
        '--chain-id',
        '10',
        '--bundler-url',
        BUNDLER,
        '--paymaster-url-env',
        'PM_URL',
        '--paymaster-context',
        '{"sponsorshipPolicyId":"sp_1"}',
      )
    ).code,
  ).toBe(0)
  const policy = await cli(
    'policy',
    t.app.id,
    '--contracts',
    `${PAYMASTER},0x00000000000000000000000000000000000000bB`,
    '--max-operations-per-day',
    '20',
    '--max-gas-cost-per-day',
    '10000000000000000',
  )
  expect(policy.code).toBe(0)
  expect(await settings()).toEqual({
    enabled: true,
    type: 'simple',
    chains: [
      { chain_id: 8453, bundler_url: BUNDLER, paymaster: { kind: 'server', address: PAYMASTER } },
      {
        chain_id: 10,
        bundler_url: BUNDLER,
        paymaster: {
          kind: 'erc7677',
          url: 'https://pm.example/rpc',
          context: { sponsorshipPolicyId: 'sp_1' },
        },
      },
    ],
    sponsorship_policy: {
      contracts: [PAYMASTER.toLowerCase(), '0x00000000000000000000000000000000000000bb'],
      max_operations_per_user_per_day: 20,
      max_gas_cost_per_user_per_day: '10000000000000000',
    },
  })
  // A chain added again is replaced; a flag left out keeps its policy value.
  await cli('add-chain', t.app.id, '--chain-id', '8453', '--bundler-url', 'https://b2.example')
  await cli('policy', t.app.id, '--contracts', 'any', '--max-operations-per-day', 'none')
  expect(await settings()).toMatchObject({
    chains: [{ chain_id: 10 }, { chain_id: 8453, bundler_url: 'https://b2.example' }],
    sponsorship_policy: {
      contracts: null,
      max_operations_per_user_per_day: null,
      max_gas_cost_per_user_per_day: '10000000000000000',
    },
  })
  expect((await cli('remove-chain', t.app.id, '--chain-id', '10')).code).toBe(0)
  const shown = await cli('show', t.app.id, '--json')
  expect(JSON.parse(shown.out)).toMatchObject({
    settings: { chains: [{ chain_id: 8453 }] },
    paymaster_signer: null,
  })
  expect((await cli('set', t.app.id, '--disable')).code).toBe(0)
  expect((await settings())?.enabled).toBe(false)
})

it('refuses malformed flags with a message, changing nothing', async () => {
  const before = await settings()
  for (const argv of [
    ['set', t.app.id, '--type', 'kernel'],
    ['set', t.app.id, '--enable', '--disable'],
    ['add-chain', t.app.id, '--chain-id', '0', '--bundler-url', BUNDLER],
    ['add-chain', t.app.id, '--chain-id', '1', '--bundler-url', 'ftp://bundler.example'],
    ['add-chain', t.app.id, '--chain-id', '1', '--bundler-url-env', 'UNSET_VAR'],
    [
      'add-chain',
      t.app.id,
      '--chain-id',
      '1',
      '--bundler-url',
      BUNDLER,
      '--paymaster-address',
      '0x12',
    ],
    [
      'add-chain',
      t.app.id,
      '--chain-id',
      '1',
      '--bundler-url',
      BUNDLER,
      '--paymaster-context',
      '{}',
    ],
    ['remove-chain', t.app.id, '--chain-id', '999'],
    ['policy', t.app.id, '--contracts', '0xnotanaddress'],
    ['policy', t.app.id, '--max-operations-per-day', '-1'],
    ['policy', t.app.id, '--max-gas-cost-per-day', '0.5'],
    ['show', 'nosuchapp'],
  ]) {
    const res = await cli(...argv)
    expect({ argv, code: res.code }).toEqual({ argv, code: 1 })
    expect(res.err).not.toBe('')
  }
  expect(await settings()).toEqual(before)
})
