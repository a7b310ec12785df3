import { describe, expect, it } from 'vitest'
import { explorerAddressUrl } from './explorer.ts'

const chain = (url?: string) => (url ? { blockExplorers: { default: { url } } } : {})

describe('explorerAddressUrl (spec 02 "Account transfer": check assets first)', () => {
  it("uses the default chain's explorer on Ethereum", () => {
    expect(explorerAddressUrl('0xabc', 'ethereum', chain('https://basescan.org/'))).toBe(
      'https://basescan.org/address/0xabc',
    )
  })
  it('uses Etherscan when the app names no chain (the default is mainnet)', () => {
    expect(explorerAddressUrl('0xabc', 'ethereum')).toBe('https://etherscan.io/address/0xabc')
  })
  it('has no link for a chain without an explorer (a local node)', () => {
    expect(explorerAddressUrl('0xabc', 'ethereum', chain())).toBeNull()
  })
  it('uses explorer.solana.com on Solana', () => {
    expect(explorerAddressUrl('So1', 'solana', chain('https://ignored.example'))).toBe(
      'https://explorer.solana.com/address/So1',
    )
  })
})
