import { describe, expect, it } from 'vitest'
import { isFundingAmountValid, sanitizeFundingAmount } from './amount.ts'

// Spec 03 §5 "Funding amount input": only digits and at most one decimal
// point; Continue is disabled unless the amount is greater than 0.
describe('sanitizeFundingAmount', () => {
  it('keeps digits and drops letters, signs, spaces and commas', () => {
    expect(sanitizeFundingAmount(' -1,000 ETH ')).toBe('1000')
    expect(sanitizeFundingAmount('1e5')).toBe('15')
  })

  it('keeps only the first decimal point', () => {
    expect(sanitizeFundingAmount('1.2.3')).toBe('1.23')
    expect(sanitizeFundingAmount('..5')).toBe('.5')
  })

  it('leaves a clean amount as typed, trailing point included (the user is still typing)', () => {
    expect(sanitizeFundingAmount('0.05')).toBe('0.05')
    expect(sanitizeFundingAmount('12.')).toBe('12.')
    expect(sanitizeFundingAmount('')).toBe('')
  })
})

describe('isFundingAmountValid', () => {
  it('accepts amounts greater than 0', () => {
    for (const amount of ['1', '0.01', '.5', '12.', '0.000000000000000001'])
      expect(isFundingAmountValid(amount), amount).toBe(true)
  })

  it('refuses zero, empty and a lone point', () => {
    for (const amount of ['', '.', '0', '0.0', '000', '.000'])
      expect(isFundingAmountValid(amount), amount).toBe(false)
  })

  it('refuses text that is not a plain decimal', () => {
    for (const amount of ['1.2.3', '-1', '1e3', '1,5', ' 1', 'abc'])
      expect(isFundingAmountValid(amount), amount).toBe(false)
  })
})
