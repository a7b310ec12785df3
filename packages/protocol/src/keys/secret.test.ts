import { ed25519 } from '@noble/curves/ed25519.js'
import { base58, hex } from '@scure/base'
import { describe, expect, it, vi } from 'vitest'
import {
  decodeSecret,
  encodeSecret,
  entropyTypeOf,
  generateHdSecret,
  importEthereumKey,
  importSolanaKey,
  type WalletSecret,
  wipeSecret,
} from './secret.ts'

const SECP256K1_N = 'fffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141'
const code = (c: string) => expect.objectContaining({ name: 'EnclaveError', code: c })

describe('generateHdSecret', () => {
  it('draws 16 bytes (128 bits) from crypto.getRandomValues (security bar 39)', () => {
    const spy = vi.spyOn(crypto, 'getRandomValues')
    const secret = generateHdSecret()
    expect(spy).toHaveBeenCalledTimes(1)
    expect(spy.mock.calls[0]).toEqual([expect.any(Uint8Array)])
    expect((spy.mock.calls[0] as [Uint8Array])[0].length).toBe(16)
    spy.mockRestore()
    expect(secret.kind).toBe('hd')
    expect(secret.payload.length).toBe(16)
  })

  it('never repeats', () => {
    const seen = new Set(Array.from({ length: 200 }, () => hex.encode(generateHdSecret().payload)))
    expect(seen.size).toBe(200)
  })
})

describe('encodeSecret / decodeSecret', () => {
  const secrets: WalletSecret[] = [
    { kind: 'hd', payload: new Uint8Array(16).fill(9) },
    { kind: 'ethereum-key', payload: new Uint8Array(32).fill(1) },
    { kind: 'solana-key', payload: new Uint8Array(32).fill(2) },
  ]

  it.each(secrets)('round-trips a $kind secret as [kind, ...payload]', (secret) => {
    const bytes = encodeSecret(secret)
    expect(bytes[0]).toBe({ hd: 1, 'ethereum-key': 2, 'solana-key': 3 }[secret.kind])
    expect(bytes.subarray(1)).toEqual(secret.payload)
    expect(decodeSecret(bytes)).toEqual(secret)
  })

  it('decodes into a copy', () => {
    const bytes = encodeSecret(secrets[0] as WalletSecret)
    const secret = decodeSecret(bytes)
    bytes.fill(0)
    expect(secret.payload).toEqual(new Uint8Array(16).fill(9))
  })

  it.each([
    ['empty', new Uint8Array()],
    ['kind 0', Uint8Array.of(0, ...new Uint8Array(16))],
    ['kind 4', Uint8Array.of(4, ...new Uint8Array(32))],
    ['hd with 15 bytes', Uint8Array.of(1, ...new Uint8Array(15))],
    ['hd with 32 bytes', Uint8Array.of(1, ...new Uint8Array(32))],
    ['ethereum key with 31 bytes', Uint8Array.of(2, ...new Uint8Array(31).fill(1))],
    ['ethereum key of zero', Uint8Array.of(2, ...new Uint8Array(32))],
    ['ethereum key ≥ n', Uint8Array.of(2, ...hex.decode(SECP256K1_N))],
    ['solana key with 64 bytes', Uint8Array.of(3, ...new Uint8Array(64))],
  ])('refuses %s with INVALID_SECRET', (_, bytes) => {
    expect(() => decodeSecret(bytes)).toThrow(code('INVALID_SECRET'))
  })

  it('refuses to encode a malformed secret', () => {
    expect(() => encodeSecret({ kind: 'hd', payload: new Uint8Array(17) })).toThrow(
      code('INVALID_SECRET'),
    )
    expect(() => encodeSecret({ kind: 'bip85' as 'hd', payload: new Uint8Array(16) })).toThrow(
      code('INVALID_SECRET'),
    )
  })

  it('reports the protocol entropy type and wipes', () => {
    const secret = generateHdSecret()
    expect(entropyTypeOf(secret)).toBe('hd')
    expect(entropyTypeOf(importSolanaKey(new Uint8Array(32)))).toBe('private-key')
    wipeSecret(secret)
    expect(secret.payload).toEqual(new Uint8Array(16))
  })
})

describe('importEthereumKey', () => {
  const key = 'ac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80'

  it('takes 32 bytes or 64 hex digits with or without 0x', () => {
    const expected = { kind: 'ethereum-key', payload: hex.decode(key) }
    expect(importEthereumKey(key)).toEqual(expected)
    expect(importEthereumKey(`0x${key.toUpperCase()}`)).toEqual(expected)
    expect(importEthereumKey(` 0x${key}\n`)).toEqual(expected)
    expect(importEthereumKey(hex.decode(key))).toEqual(expected)
  })

  it.each([
    ['short hex', key.slice(2)],
    ['long hex', `${key}00`],
    ['not hex', `${key.slice(1)}g`],
    ['zero', '0'.repeat(64)],
    ['the group order', SECP256K1_N],
    ['31 bytes', new Uint8Array(31).fill(1)],
  ])('refuses %s with INVALID_KEY', (_, input) => {
    expect(() => importEthereumKey(input)).toThrow(code('INVALID_KEY'))
  })
})

describe('importSolanaKey', () => {
  const seed = Uint8Array.from({ length: 32 }, (_, i) => i + 1)
  const publicKey = ed25519.getPublicKey(seed)
  const secretKey = Uint8Array.of(...seed, ...publicKey) // Solana's 64-byte secret key

  it('takes a 32-byte seed, or a 64-byte secret key as bytes or base58', () => {
    const expected = { kind: 'solana-key', payload: seed }
    expect(importSolanaKey(seed)).toEqual(expected)
    expect(importSolanaKey(secretKey)).toEqual(expected)
    expect(importSolanaKey(base58.encode(secretKey))).toEqual(expected)
  })

  it('refuses a 64-byte key whose public half does not match', () => {
    const corrupted = secretKey.slice()
    corrupted[63] = (corrupted[63] as number) ^ 1
    expect(() => importSolanaKey(corrupted)).toThrow(code('INVALID_KEY'))
    const swapped = Uint8Array.of(...seed, ...ed25519.getPublicKey(new Uint8Array(32)))
    expect(() => importSolanaKey(base58.encode(swapped))).toThrow(code('INVALID_KEY'))
  })

  it.each([
    ['31 bytes', new Uint8Array(31)],
    ['63 bytes', new Uint8Array(63)],
    ['not base58', '0OIl'],
  ])('refuses %s with INVALID_KEY', (_, input) => {
    expect(() => importSolanaKey(input)).toThrow(code('INVALID_KEY'))
  })
})
