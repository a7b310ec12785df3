import { describe, expect, it } from 'vitest'
import { isMoonpayTestnet, moonpayCurrencyCode } from './moonpayCurrencyCode.ts'

// Spec 03 §9: the card currency code comes from the chain; Solana USDC uses
// USDC_SOL, SOL uses SOL. §5: a provider whose currency cannot be bought on
// the chain is not offered (undefined).
const evm = (chainId: number, asset: 'native-currency' | 'USDC' = 'native-currency') =>
  moonpayCurrencyCode({ chainType: 'ethereum', chainId, asset })

describe('moonpayCurrencyCode', () => {
  it("answers MoonPay's codes for the native coin of each network it sells on", () => {
    expect(evm(1)).toBe('eth')
    expect(evm(8453)).toBe('eth_base')
    expect(evm(10)).toBe('eth_optimism')
    expect(evm(42161)).toBe('eth_arbitrum')
    expect(evm(137)).toBe('pol_polygon')
    expect(evm(43114)).toBe('avax_cchain')
  })

  it("answers MoonPay's USDC codes per network", () => {
    expect(evm(1, 'USDC')).toBe('usdc')
    expect(evm(8453, 'USDC')).toBe('usdc_base')
    expect(evm(42161, 'USDC')).toBe('usdc_arbitrum')
    expect(evm(137, 'USDC')).toBe('usdc_polygon')
  })

  it('buys SOL as sol and Solana USDC as usdc_sol', () => {
    const sol = (asset: 'native-currency' | 'USDC') =>
      moonpayCurrencyCode({ chainType: 'solana', cluster: 'mainnet-beta', asset })
    expect(sol('native-currency')).toBe('sol')
    expect(sol('USDC')).toBe('usdc_sol')
  })

  it("uses the mainnet's code on its testnet (MoonPay's sandbox delivers test coins)", () => {
    expect(evm(11155111)).toBe('eth')
    expect(evm(84532, 'USDC')).toBe('usdc_base')
    expect(isMoonpayTestnet(84532)).toBe(true)
    expect(isMoonpayTestnet(8453)).toBe(false)
  })

  it('is undefined where MoonPay does not sell the asset', () => {
    expect(evm(59144)).toBeUndefined() // Linea
    expect(evm(31337)).toBeUndefined() // a local chain
    expect(evm(42220, 'USDC')).toBeUndefined() // Celo: native only
    expect(moonpayCurrencyCode({ chainType: 'ethereum', asset: 'USDC' })).toBeUndefined()
    expect(
      moonpayCurrencyCode({ chainType: 'solana', cluster: 'testnet', asset: 'USDC' }),
    ).toBeUndefined()
  })

  it('sells on Solana mainnet and devnet (sandbox) only: not on the testnet or an own cluster', () => {
    const sol = (cluster: 'mainnet-beta' | 'devnet' | 'testnet' | undefined) =>
      moonpayCurrencyCode({ chainType: 'solana', cluster, asset: 'native-currency' })
    expect(sol('mainnet-beta')).toBe('sol')
    expect(sol('devnet')).toBe('sol')
    expect(sol('testnet')).toBeUndefined()
    expect(sol(undefined)).toBeUndefined()
    expect(moonpayCurrencyCode({ chainType: 'solana', cluster: 'devnet', asset: 'USDC' })).toBe(
      'usdc_sol',
    )
  })
})
