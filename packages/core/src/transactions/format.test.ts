import { parseEther, parseUnits } from 'viem'
import { describe, expect, it } from 'vitest'
import { formatNativeAmount, formatTokenAmount, formatUsd } from './format.ts'

// Spec 03 §9 "USD display": 2 decimals; under $0.01 shows '<$0.01'.
describe('formatUsd', () => {
  it('shows 2 decimals with thousands separators', () => {
    expect(formatUsd(1234.567)).toBe('$1,234.57')
    expect(formatUsd(1_000_000)).toBe('$1,000,000.00')
    expect(formatUsd(3.1)).toBe('$3.10')
    expect(formatUsd(0.01)).toBe('$0.01')
  })

  it("shows '<$0.01' for a value above zero and under $0.01", () => {
    expect(formatUsd(0.0099)).toBe('<$0.01')
    expect(formatUsd(0.000001)).toBe('<$0.01')
  })

  it("shows '$0.00' for zero, including -0", () => {
    expect(formatUsd(0)).toBe('$0.00')
    expect(formatUsd(-0)).toBe('$0.00')
  })

  it('keeps the sign of a negative value', () => {
    expect(formatUsd(-1.5)).toBe('-$1.50')
    expect(formatUsd(-0.004)).toBe('-<$0.01')
  })
})

// Spec 03 §9 "Token display": adaptive precision, at least 1 and at most the
// token's decimals. Decision: 3 significant fraction digits (3 fraction digits
// from 1 up), capped at `decimals`, rounded half up, trailing zeros dropped.
describe('formatTokenAmount', () => {
  it('drops trailing zeros: 1.5 USDC shows 1.5', () => {
    expect(formatTokenAmount(parseUnits('1.5', 6), 6)).toBe('1.5')
    expect(formatTokenAmount(parseUnits('42', 6), 6)).toBe('42')
  })

  it('shows the first 3 significant digits of an amount under 1', () => {
    expect(formatTokenAmount(parseUnits('0.000123', 6), 6)).toBe('0.000123')
    expect(formatTokenAmount(parseUnits('0.0123456', 18), 18)).toBe('0.0123')
    expect(formatTokenAmount(parseUnits('0.5', 18), 18)).toBe('0.5')
  })

  it('shows 3 fraction digits, rounded half up, from 1 up', () => {
    expect(formatTokenAmount(parseUnits('1234.567891', 6), 6)).toBe('1234.568')
    expect(formatTokenAmount(parseUnits('2.0004', 18), 18)).toBe('2')
    expect(formatTokenAmount(parseUnits('2.0005', 18), 18)).toBe('2.001')
  })

  it('never shows more digits than the token has decimals', () => {
    expect(formatTokenAmount(1n, 6)).toBe('0.000001')
    expect(formatTokenAmount(1n, 18)).toBe('0.000000000000000001')
    expect(formatTokenAmount(15n, 1)).toBe('1.5')
    expect(formatTokenAmount(7n, 0)).toBe('7')
  })

  it('carries rounding into the next digit', () => {
    expect(formatTokenAmount(parseUnits('0.00099996', 18), 18)).toBe('0.001')
    expect(formatTokenAmount(parseUnits('9.9996', 6), 6)).toBe('10')
  })

  it("shows '0' for zero and keeps the sign of a negative amount", () => {
    expect(formatTokenAmount(0n, 6)).toBe('0')
    expect(formatTokenAmount(-parseUnits('1.5', 6), 6)).toBe('-1.5')
  })

  it('keeps huge amounts exact (no floats)', () => {
    expect(formatTokenAmount(2n ** 255n, 18)).toBe(
      '57896044618658097711785492504343953926634992332820282019728.792',
    )
  })

  it('refuses decimals that are negative or not whole', () => {
    expect(() => formatTokenAmount(1n, -1)).toThrow(RangeError)
    expect(() => formatTokenAmount(1n, 1.5)).toThrow(RangeError)
  })
})

// Spec 03 §9 "Token display": native amounts up to 6 decimals; zero shows
// '<0.001'. Decision: "zero" is a nonzero amount that rounds to zero at 6
// decimals (under 0.0000005); an amount that is exactly 0 shows '0'.
describe('formatNativeAmount', () => {
  it('shows up to 6 decimals, rounded half up, trailing zeros dropped', () => {
    expect(formatNativeAmount(parseEther('0.0123456789'))).toBe('0.012346')
    expect(formatNativeAmount(parseEther('1.5'))).toBe('1.5')
    expect(formatNativeAmount(parseEther('12345.0000004'))).toBe('12345')
    expect(formatNativeAmount(parseEther('0.0000005'))).toBe('0.000001')
  })

  it("shows '<0.001' for a nonzero amount that rounds to zero at 6 decimals", () => {
    expect(formatNativeAmount(1n)).toBe('<0.001')
    expect(formatNativeAmount(parseEther('0.00000049'))).toBe('<0.001')
  })

  it("shows '0' for an amount that is exactly zero", () => {
    expect(formatNativeAmount(0n)).toBe('0')
  })

  it('uses the given decimals for native currencies that are not 18', () => {
    expect(formatNativeAmount(1_234_567_891n, 9)).toBe('1.234568')
    expect(formatNativeAmount(15n, 2)).toBe('0.15')
  })

  it('keeps the sign of a negative amount', () => {
    expect(formatNativeAmount(-parseEther('0.25'))).toBe('-0.25')
    expect(formatNativeAmount(-1n)).toBe('-<0.001')
  })
})
