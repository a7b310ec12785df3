import { expect, it } from 'vitest'
import { firstSignature } from './first-signature.ts'

it("reads the fee payer's signature after the compact-u16 count", () => {
  const one = new Uint8Array([1, ...new Array(64).fill(9), 0x80])
  expect(firstSignature(one)).toEqual(new Uint8Array(64).fill(9))
  // 200 signatures: the count takes two bytes (0xc8 0x01).
  const many = new Uint8Array([0xc8, 0x01, ...new Array(64).fill(3), ...new Array(64).fill(4)])
  expect(firstSignature(many)).toEqual(new Uint8Array(64).fill(3))
})

it('refuses bytes without a signature', () => {
  expect(() => firstSignature(new Uint8Array([0, 1, 2]))).toThrow(RangeError)
  expect(() => firstSignature(new Uint8Array([1, 1, 2]))).toThrow(RangeError)
})
