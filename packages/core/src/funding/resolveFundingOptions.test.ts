import type { FundingConfig, FundingOption } from '@latchkey/protocol/schemas'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { LatchkeyError } from '../errors.ts'
import { COINBASE_ONRAMP_CHAIN_IDS, resolveFundingOptions } from './resolveFundingOptions.ts'
import type { FundingAsset } from './usdc.ts'

const ALL: FundingOption[] = [
  { method: 'card', provider: 'moonpay' },
  { method: 'card', provider: 'coinbase' },
  { method: 'exchange', provider: 'coinbase' },
  { method: 'wallets', provider: null },
  { method: 'manual', provider: null },
]

const config = (overrides: Partial<FundingConfig> = {}): FundingConfig => ({
  options: ALL,
  default_recommended_amount: '0.1',
  default_recommended_asset: 'native-currency',
  cross_chain_bridging_enabled: false,
  moonpay: { publishable_key: 'pk_test_x', sandbox: true, api_url: 'https://api.moonpay.com' },
  bridge: null,
  ...overrides,
})

const errorOf = (run: () => unknown): LatchkeyError => {
  try {
    run()
  } catch (error) {
    if (error instanceof LatchkeyError) return error
    throw error
  }
  throw new Error('expected a LatchkeyError')
}

let warn: ReturnType<typeof vi.spyOn>
beforeEach(() => {
  warn = vi.spyOn(console, 'warn').mockImplementation(() => {})
})
afterEach(() => warn.mockRestore())

// Spec 03 §5, checked in order.
describe('resolveFundingOptions: the validation rules', () => {
  it("refuses with 'Wallet funding is not enabled' when funding is off or has no option", () => {
    for (const funding of [null, config({ options: [] })]) {
      const error = errorOf(() =>
        resolveFundingOptions({
          config: funding,
          chainType: 'ethereum',
          chainId: 1,
          asset: 'native-currency',
          hostChainIds: [1],
        }),
      )
      expect(error.code).toBe('FUNDING_NOT_ENABLED')
      expect(error.userMessage.title).toBe('Wallet funding is not enabled')
    }
  })

  it('refuses a chain the host did not configure, naming its id', () => {
    const error = errorOf(() =>
      resolveFundingOptions({
        config: config(),
        chainType: 'ethereum',
        chainId: 8453,
        asset: 'native-currency',
        hostChainIds: [1, 10],
      }),
    )
    expect(error.code).toBe('FUNDING_CHAIN_NOT_CONFIGURED')
    expect(error.details).toEqual({ id: '8453' })
    expect(error.message).toBe('Funding chain 8453 is not in LatchkeyProvider chains list')
  })

  it('checks that funding is enabled before the chain', () => {
    const error = errorOf(() =>
      resolveFundingOptions({
        config: null,
        chainType: 'ethereum',
        chainId: 8453,
        asset: 'native-currency',
        hostChainIds: [],
      }),
    )
    expect(error.code).toBe('FUNDING_NOT_ENABLED')
  })

  it('refuses USDC on the Solana testnet', () => {
    const error = errorOf(() =>
      resolveFundingOptions({
        config: config(),
        chainType: 'solana',
        cluster: 'testnet',
        asset: 'USDC',
        hostChainIds: [],
      }),
    )
    expect(error.code).toBe('FUNDING_USDC_SOLANA_TESTNET')
    expect(error.userMessage.title).toBe('USDC funding is not supported on the Solana testnet')
  })
})

describe('resolveFundingOptions: the options offered', () => {
  it('offers every configured option, in order, where all of them work (Base)', () => {
    expect(
      resolveFundingOptions({
        config: config(),
        chainType: 'ethereum',
        chainId: 8453,
        asset: 'native-currency',
        hostChainIds: [8453],
      }),
    ).toEqual(ALL)
  })

  it('drops MoonPay where its currency cannot be bought, and Coinbase off its five chains (Linea)', () => {
    expect(
      resolveFundingOptions({
        config: config(),
        chainType: 'ethereum',
        chainId: 59144,
        asset: 'native-currency',
        hostChainIds: [59144],
      }),
    ).toEqual([
      { method: 'wallets', provider: null },
      { method: 'manual', provider: null },
    ])
  })

  it('offers Coinbase exactly on Ethereum, Base, Optimism, Polygon and Arbitrum', () => {
    expect([...COINBASE_ONRAMP_CHAIN_IDS].sort((a, b) => a - b)).toEqual([1, 10, 137, 8453, 42161])
    const coinbaseOn = (chainId: number) =>
      resolveFundingOptions({
        config: config({ options: [{ method: 'card', provider: 'coinbase' }] }),
        chainType: 'ethereum',
        chainId,
        asset: 'native-currency',
        hostChainIds: [chainId],
      }).length === 1
    expect([1, 8453, 10, 137, 42161].every(coinbaseOn)).toBe(true)
    expect(coinbaseOn(43114)).toBe(false)
    expect(coinbaseOn(11155111)).toBe(false)
  })

  it('drops MoonPay when the app set no MoonPay key', () => {
    const options = resolveFundingOptions({
      config: config({ moonpay: null }),
      chainType: 'ethereum',
      chainId: 1,
      asset: 'native-currency',
      hostChainIds: [1],
    })
    expect(options).not.toContainEqual({ method: 'card', provider: 'moonpay' })
    expect(options).toContainEqual({ method: 'card', provider: 'coinbase' })
  })

  const LIVE = { publishable_key: 'pk_live_x', sandbox: false, api_url: 'https://api.moonpay.com' }
  const onSolana = (cluster: string, sandbox: boolean, asset: FundingAsset = 'native-currency') =>
    resolveFundingOptions({
      config: config(sandbox ? {} : { moonpay: LIVE }),
      chainType: 'solana',
      cluster,
      asset,
      hostChainIds: [],
    })
  const MOONPAY = { method: 'card', provider: 'moonpay' }

  it('offers MoonPay (live key) and Coinbase for SOL on mainnet, MoonPay (sandbox key) alone on devnet', () => {
    expect(onSolana('mainnet-beta', false)).toEqual(ALL)
    expect(onSolana('devnet', true).filter((o) => o.provider === 'coinbase')).toEqual([])
    expect(onSolana('devnet', true)).toContainEqual(MOONPAY)
    expect(onSolana('devnet', true, 'USDC')).toContainEqual(MOONPAY)
  })

  it('offers MoonPay on Solana only where it delivers: not on the testnet, an own cluster, or with the other kind of key', () => {
    // A local validator ('localnet'): neither card provider can deliver there.
    expect(onSolana('localnet', true)).toEqual([
      { method: 'wallets', provider: null },
      { method: 'manual', provider: null },
    ])
    expect(onSolana('localnet', false)).not.toContainEqual(MOONPAY)
    expect(onSolana('testnet', true)).not.toContainEqual(MOONPAY)
    // A sandbox key buys devnet coins, a live key mainnet ones.
    expect(onSolana('mainnet-beta', true)).not.toContainEqual(MOONPAY)
    expect(onSolana('devnet', false)).not.toContainEqual(MOONPAY)
  })

  it('disables wallet transfer of USDC where the USDC address is unknown, with a warning only', () => {
    const options = resolveFundingOptions({
      config: config(),
      chainType: 'ethereum',
      chainId: 31337,
      asset: 'USDC',
      hostChainIds: [31337],
    })
    expect(options).toEqual([{ method: 'manual', provider: null }])
    expect(warn).toHaveBeenCalledWith(
      expect.stringContaining('no USDC address known for chain 31337'),
    )
  })
})
