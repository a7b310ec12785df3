import { expect, it } from 'vitest'
import { buildSettings } from '../apps/settings.ts'
import { assertSmartWalletSettings, toSmartWalletConfig } from './settings.ts'

// `settings.smart_wallets` is validated where every app setting is
// (buildSettings): each malformed field is refused with a message naming it.
const chain = { chain_id: 8453, bundler_url: 'https://bundler.example/rpc' }
const ok = { enabled: true, type: 'safe', chains: [chain] }

it('accepts a complete setting and defaults the public config to safe', () => {
  const settings = {
    enabled: true,
    chains: [
      { ...chain, paymaster: { kind: 'server', address: `0x${'a'.repeat(40)}` } },
      {
        chain_id: 10,
        bundler_url: 'http://localhost:4337',
        paymaster: { kind: 'erc7677', url: 'https://pm.example', context: { a: 1 } },
      },
    ],
    sponsorship_policy: {
      contracts: [`0x${'b'.repeat(40)}`],
      max_operations_per_user_per_day: 0,
      max_gas_cost_per_user_per_day: null,
    },
  }
  expect(() => assertSmartWalletSettings(settings)).not.toThrow()
  expect(toSmartWalletConfig(settings as never)).toEqual({
    type: 'safe',
    version: '1.4.1',
    chains: [
      { chain_id: 8453, sponsored: true },
      { chain_id: 10, sponsored: true },
    ],
  })
})

it('refuses each malformed field, naming it', () => {
  const cases: Array<[unknown, string]> = [
    [[], 'smart_wallets: must be an object'],
    [{ ...ok, chain: [] }, 'unknown key chain'],
    [{ ...ok, enabled: 'yes' }, 'enabled must be true or false'],
    [{ ...ok, type: 'kernel' }, 'type must be one of safe, simple, simple_7702'],
    [{ enabled: true }, 'chains must be a list'],
    [{ ...ok, chains: [{ ...chain, chain_id: 0 }] }, 'chains[0].chain_id must be a positive'],
    [{ ...ok, chains: [{ ...chain, chain_id: 1.5 }] }, 'chains[0].chain_id'],
    [{ ...ok, chains: [chain, chain] }, 'chain 8453 is listed twice'],
    [
      { ...ok, chains: [{ ...chain, bundler_url: 'javascript:alert(1)' }] },
      'bundler_url must be an http(s) URL',
    ],
    [{ ...ok, chains: [{ ...chain, bundler_url: 'not a url' }] }, 'bundler_url'],
    [
      { ...ok, chains: [{ ...chain, paymaster: { kind: 'pimlico' } }] },
      'paymaster.kind must be erc7677 or server',
    ],
    [
      { ...ok, chains: [{ ...chain, paymaster: { kind: 'server', address: '0x12' } }] },
      'paymaster.address',
    ],
    [
      { ...ok, chains: [{ ...chain, paymaster: { kind: 'erc7677', url: 'file:///x' } }] },
      'paymaster.url',
    ],
    [
      {
        ...ok,
        chains: [{ ...chain, paymaster: { kind: 'erc7677', url: 'https://p', context: 'x' } }],
      },
      'paymaster.context',
    ],
    [
      { ...ok, chains: [{ ...chain, extra: 1 }] },
      'chains[0] has only chain_id, bundler_url and paymaster',
    ],
    [{ ...ok, sponsorship_policy: { contracts: ['0xABC'] } }, 'sponsorship_policy.contracts'],
    [{ ...ok, sponsorship_policy: { contracts: [`0x${'A'.repeat(40)}`] } }, 'lowercase'],
    [
      { ...ok, sponsorship_policy: { max_operations_per_user_per_day: -1 } },
      'max_operations_per_user_per_day',
    ],
    [
      { ...ok, sponsorship_policy: { max_gas_cost_per_user_per_day: 5 } },
      'max_gas_cost_per_user_per_day',
    ],
    [
      { ...ok, sponsorship_policy: { max_value: '1' } },
      'sponsorship_policy: unknown key max_value',
    ],
  ]
  for (const [value, message] of cases) {
    expect(() => assertSmartWalletSettings(value), message).toThrow(message)
    expect(() => buildSettings({ settings: { smart_wallets: value as never } })).toThrow(message)
  }
})

it('the public config is null while off', () => {
  expect(toSmartWalletConfig(undefined)).toBeNull()
  expect(toSmartWalletConfig({ chains: [chain] })).toBeNull()
  expect(toSmartWalletConfig({ ...ok, enabled: false, type: 'simple' } as never)).toBeNull()
})
