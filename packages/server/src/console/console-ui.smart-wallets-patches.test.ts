import { expect, it } from 'vitest'
import {
  contractsOf,
  emptyChain,
  smartWalletFieldsOf,
  smartWalletsPatchOf,
} from '../../console/src/smart-wallets-settings.ts'
import { assertSmartWalletSettings } from '../smart-wallets/settings.ts'

// The console's "Smart wallets" form (console/src/smart-wallets-settings.ts):
// settings.smart_wallets as fields and back — the whole object when a field
// changed, nothing otherwise — in the shape the server's validation accepts.

const PAYMASTER = '0x00000000000000000000000000000000000000aa'
const settings = {
  logo_url: 'https://example.com/logo.png',
  smart_wallets: {
    enabled: true,
    type: 'simple',
    chains: [
      {
        chain_id: 8453,
        bundler_url: 'https://bundler.example/8453?apikey=k',
        paymaster: { kind: 'server', address: PAYMASTER },
      },
      {
        chain_id: 10,
        bundler_url: 'https://bundler.example/10',
        paymaster: { kind: 'erc7677', url: 'https://pm.example/10', context: { policy: 'sp_1' } },
      },
      { chain_id: 1, bundler_url: 'https://bundler.example/1' },
    ],
    sponsorship_policy: {
      contracts: [PAYMASTER],
      max_operations_per_user_per_day: 20,
      max_gas_cost_per_user_per_day: '10000000000000000',
    },
  },
}

it('leaves smart_wallets alone when no field changed', () => {
  expect(smartWalletsPatchOf(smartWalletFieldsOf(settings), settings)).toEqual({})
  expect(smartWalletsPatchOf(smartWalletFieldsOf({}), {})).toEqual({})
})

it('reads every setting into fields, and writes them back unchanged', () => {
  const fields = smartWalletFieldsOf(settings)
  expect(fields).toMatchObject({
    enabled: true,
    type: 'simple',
    contracts: PAYMASTER,
    maxOperations: '20',
    maxGasCost: '10000000000000000',
  })
  expect(fields.chains.map((chain) => chain.paymaster)).toEqual(['server', 'erc7677', 'none'])
  const patch = smartWalletsPatchOf({ ...fields, type: 'safe' }, settings)
  expect(patch).toEqual({ smart_wallets: { ...settings.smart_wallets, type: 'safe' } })
  assertSmartWalletSettings(patch.smart_wallets)
})

it('turns smart wallets on for an app without them: off and safe by default, no chains', () => {
  const fields = smartWalletFieldsOf({})
  expect(fields).toEqual({
    enabled: false,
    type: 'safe',
    chains: [],
    contracts: '',
    maxOperations: '',
    maxGasCost: '',
  })
  const patch = smartWalletsPatchOf({ ...fields, enabled: true }, {})
  expect(patch).toEqual({ smart_wallets: { enabled: true, type: 'safe', chains: [] } })
  assertSmartWalletSettings(patch.smart_wallets)
})

it('adds, changes and removes chain rows; empty policy fields are no limit', () => {
  const fields = smartWalletFieldsOf(settings)
  const chains = [
    {
      ...emptyChain(),
      chainId: ' 84532 ',
      bundlerUrl: 'https://b.example',
      paymaster: 'erc7677' as const,
      paymasterUrl: 'https://pm.example',
    },
    { ...(fields.chains[0] ?? emptyChain()), paymaster: 'none' as const },
  ]
  const patch = smartWalletsPatchOf(
    { ...fields, chains, contracts: '', maxOperations: ' ', maxGasCost: '' },
    settings,
  )
  expect(patch).toEqual({
    smart_wallets: {
      enabled: true,
      type: 'simple',
      chains: [
        {
          chain_id: 84532,
          bundler_url: 'https://b.example',
          paymaster: { kind: 'erc7677', url: 'https://pm.example' },
        },
        { chain_id: 8453, bundler_url: 'https://bundler.example/8453?apikey=k' },
      ],
    },
  })
  assertSmartWalletSettings(patch.smart_wallets)
})

it('stores contracts lowercase from lines or commas; passes what it cannot read on to the server', () => {
  expect(contractsOf(`0x00000000000000000000000000000000000000AA,\n 0xBB `)).toEqual([
    PAYMASTER,
    '0xbb',
  ])
  expect(contractsOf(' \n ')).toBeNull()
  const fields = smartWalletFieldsOf({})
  const patch = smartWalletsPatchOf(
    {
      ...fields,
      chains: [{ ...emptyChain(), chainId: 'base', bundlerUrl: 'nope' }],
      maxOperations: 'many',
    },
    {},
  )
  expect(patch.smart_wallets).toMatchObject({
    chains: [{ chain_id: 'base', bundler_url: 'nope' }],
    sponsorship_policy: { contracts: null, max_operations_per_user_per_day: 'many' },
  })
  expect(() => assertSmartWalletSettings(patch.smart_wallets)).toThrow(
    'smart_wallets: chains[0].chain_id must be a positive whole number, e.g. 8453',
  )
})

it('refuses a paymaster context that is not JSON, naming the chain', () => {
  const fields = smartWalletFieldsOf(settings)
  const chains = fields.chains.map((chain, i) =>
    i === 1 ? { ...chain, paymasterContext: '{policy: sp_1}' } : chain,
  )
  expect(() => smartWalletsPatchOf({ ...fields, chains }, settings)).toThrow(
    'smart_wallets: chains[1].paymaster.context is not valid JSON',
  )
})
