import { getAddress } from 'viem'
import { describe, expect, it } from 'vitest'
import { USDC_SOLANA_MINT, usdcAddress } from './usdc.ts'

// Spec 03 §9 "USDC addresses": known for about 12 Ethereum-style chains.
describe('usdcAddress', () => {
  it("answers Circle's USDC on the main networks", () => {
    expect(usdcAddress(1)).toBe('0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48')
    expect(usdcAddress(8453)).toBe('0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913')
    expect(usdcAddress(10)).toBe('0x0b2C639c533813f4Aa9D7837CAf62653d097Ff85')
    expect(usdcAddress(137)).toBe('0x3c499c542cEF5E3811e1192ce70d8cC03d5c3359')
    expect(usdcAddress(42161)).toBe('0xaf88d065e77c8cC2239327C5EDb3A432268e5831')
  })

  it('answers the testnet USDC of Sepolia and Base Sepolia', () => {
    expect(usdcAddress(11155111)).toBe('0x1c7D4B196Cb0C7B01d743Fbc6116a902379C7238')
    expect(usdcAddress(84532)).toBe('0x036CbD53842c5426634e7929541eC2318f3dCF7e')
  })

  it('knows at least 12 chains, every address checksummed', () => {
    const known = [1, 10, 137, 324, 8453, 42161, 42220, 43114, 59144, 130, 480, 11155111, 84532]
    for (const id of known) {
      const address = usdcAddress(id)
      expect(address, `chain ${id}`).toBeDefined()
      expect(getAddress(address as string)).toBe(address)
    }
  })

  it('answers undefined for a chain with only bridged USDC (BNB Chain) or an unknown chain', () => {
    expect(usdcAddress(56)).toBeUndefined()
    expect(usdcAddress(31337)).toBeUndefined()
  })

  it("holds Circle's Solana mints for mainnet-beta and devnet", () => {
    expect(USDC_SOLANA_MINT['mainnet-beta']).toBe('EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v')
    expect(USDC_SOLANA_MINT.devnet).toBe('4zMMC9srt5Ri5X14GAgXhaHii3GnPAEERYPJgZJDncDU')
  })
})
