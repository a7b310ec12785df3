import { describe, expect, it } from 'vitest'
import { insufficientBalance } from './insufficient-balance.ts'

describe('insufficientBalance (spec 03 §5, §8)', () => {
  it("says each chain's words and keeps the amounts in details", () => {
    expect(insufficientBalance('ethereum', '0xabc', { balance: 1n })).toMatchObject({
      code: 'INSUFFICIENT_BALANCE',
      message: 'Wallet 0xabc does not have enough funds.',
      details: { address: '0xabc', balance: 1n },
    })
    expect(insufficientBalance('solana', 'So1')).toMatchObject({
      code: 'INSUFFICIENT_BALANCE',
      message: 'Solana wallet has insufficient funds for this transaction.',
    })
  })
})
