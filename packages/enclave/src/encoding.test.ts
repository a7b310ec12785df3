import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { base64urlToBytes, bytesToBase64url } from './encoding.ts'

describe('base64url without padding', () => {
  it('round-trips any bytes and matches the protocol pattern', () => {
    fc.assert(
      fc.property(fc.uint8Array({ minLength: 1, maxLength: 200 }), (bytes) => {
        const text = bytesToBase64url(bytes)
        expect(text).toMatch(/^[A-Za-z0-9_-]+$/)
        expect(base64urlToBytes(text)).toEqual(bytes)
      }),
    )
  })

  it('uses the URL alphabet', () => {
    expect(bytesToBase64url(Uint8Array.of(251, 255))).toBe('-_8')
    expect(base64urlToBytes('-_8')).toEqual(Uint8Array.of(251, 255))
  })

  it.each([
    ['padding', '-_8='],
    ['the standard alphabet', '+/8'],
    ['non-canonical trailing bits', '-_9'],
    ['whitespace', '-_8 '],
    ['an impossible length', 'A'],
  ])('refuses %s', (_, text) => {
    expect(() => base64urlToBytes(text)).toThrow(
      expect.objectContaining({ code: 'INVALID_ENCODING' }),
    )
  })
})
