import crypto from 'node:crypto'
import { syncBuiltinESMExports } from 'node:module'
import { CODE_LENGTH } from '@latchkey/protocol'
import { afterEach, expect, it, vi } from 'vitest'
import { newNumericCode } from '../ids.ts'
import { chiSquareUniform } from '../test/randomness.ts'

// Security bar 1 (NIST SP 800-63B 5.1.3.2): one-time codes are 6 digits drawn
// from a CSPRNG. `issueOtp` (otp.ts) takes every code from `newNumericCode`.
//
// The statistical bounds below are set so that a correct CSPRNG fails each
// check with probability < 1e-10 (tail of the chi-square or normal
// distribution), under 1e-9 for the whole file: the tests do not flake.

const N = 100_000
const codes = Array.from({ length: N }, newNumericCode)

afterEach(() => {
  vi.restoreAllMocks()
  // ESM named exports of a built-in follow its CommonJS object only when synced.
  syncBuiltinESMExports()
})

it('every code is exactly 6 decimal digits, leading zeros kept', () => {
  expect(CODE_LENGTH).toBe(6)
  expect(codes.filter((code) => !/^\d{6}$/.test(code))).toEqual([])
  // P(no code below 100000 among N) = 0.9^N ≈ 10^-4576.
  expect(codes.some((code) => code.startsWith('0'))).toBe(true)
})

it('each digit position is uniform over 0–9', () => {
  for (let position = 0; position < CODE_LENGTH; position++) {
    const counts = new Array<number>(10).fill(0)
    for (const code of codes) {
      const digit = Number(code[position])
      counts[digit] = (counts[digit] ?? 0) + 1
    }
    // 9 degrees of freedom: P(χ² > 72) ≈ 6.2e-12 for uniform digits. Six
    // positions: < 4e-11 together. A digit off by 1% of its share (100 of
    // 10,000) already adds ~1 to χ²; a stuck or skewed digit adds thousands.
    expect(chiSquareUniform(counts)).toBeLessThan(72)
  }
})

it('shows no modulo bias: low code values are not over-represented', () => {
  // Reducing 3 random bytes mod 10^6 would make values below 2^24 mod 10^6 =
  // 777,216 come out 17/16 as often as the rest: 78.75% of codes instead of
  // 77.72%, 7.8 standard deviations away at N = 100,000. |z| > 6.5 happens
  // with probability 8e-11 for an unbiased generator.
  const cut = 2 ** 24 % 10 ** CODE_LENGTH
  const p = cut / 10 ** CODE_LENGTH
  const below = codes.filter((code) => Number(code) < cut).length
  const z = (below - N * p) / Math.sqrt(N * p * (1 - p))
  expect(Math.abs(z)).toBeLessThan(6.5)

  // Values mod 7 (10^6 is not a multiple of 7, so any byte-mod scheme would
  // leave its trace here too): 6 degrees of freedom, P(χ² > 64) ≈ 7e-12.
  const residues = new Array<number>(7).fill(0)
  for (const code of codes) {
    const residue = Number(code) % 7
    residues[residue] = (residues[residue] ?? 0) + 1
  }
  expect(chiSquareUniform(residues)).toBeLessThan(64)
})

it('draws the whole range from node:crypto randomInt (rejection sampling, no modulo)', () => {
  const randomInt = vi.spyOn(crypto, 'randomInt')
  syncBuiltinESMExports()
  newNumericCode()
  // crypto.randomInt(min, max) rejects out-of-range draws, so every value in
  // [0, 10^6) is equally likely; the code is that value, zero-padded.
  expect(randomInt).toHaveBeenCalledTimes(1)
  expect(randomInt).toHaveBeenCalledWith(0, 10 ** CODE_LENGTH)

  randomInt.mockImplementation((() => 42) as unknown as typeof crypto.randomInt)
  expect(newNumericCode()).toBe('000042')
})

it('does not depend on Math.random', () => {
  vi.spyOn(Math, 'random').mockReturnValue(0.5)
  const sample = new Set(Array.from({ length: 100 }, newNumericCode))
  // 100 codes from 10^6 values: P(≤ 90 distinct) is astronomically small.
  expect(sample.size).toBeGreaterThan(90)
  expect(Math.random).not.toHaveBeenCalled()
})
