import { maxUint256 } from 'viem'
import { describe, expect, it } from 'vitest'
import { isUnlimitedApproval } from './isUnlimitedApproval.ts'

// Spec 03 §9: an unlimited ERC-20 approval is shown as 'Maximum'.
describe('isUnlimitedApproval', () => {
  it('treats maxUint256 as unlimited', () => {
    expect(isUnlimitedApproval(maxUint256)).toBe(true)
  })

  it('treats 2^255 and anything above it as unlimited', () => {
    expect(isUnlimitedApproval(2n ** 255n)).toBe(true)
    expect(isUnlimitedApproval(maxUint256 - 1n)).toBe(true)
  })

  it('treats amounts below 2^255 as limited', () => {
    expect(isUnlimitedApproval(2n ** 255n - 1n)).toBe(false)
    expect(isUnlimitedApproval(1_000_000n)).toBe(false)
    expect(isUnlimitedApproval(0n)).toBe(false)
  })
})
