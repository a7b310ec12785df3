import { base58 } from '@scure/base'
import { describe, expect, it } from 'vitest'
import { buildMemoTransaction, compactU16, MEMO_PROGRAM_ID } from './memo-transaction.ts'

/** Reads a compact-u16 at `offset`: [value, bytes read]. */
function readCompactU16(bytes: Uint8Array, offset: number): [number, number] {
  let value = 0
  for (let i = 0; i < 3; i++) {
    const byte = bytes[offset + i] as number
    value |= (byte & 0x7f) << (7 * i)
    if ((byte & 0x80) === 0) return [value, i + 1]
  }
  throw new Error('compact-u16 too long')
}

/** A minimal legacy-transaction reader, enough to check the layout. */
function parseTransaction(bytes: Uint8Array) {
  let at = 0
  const take = (n: number) => {
    const out = bytes.slice(at, at + n)
    at += n
    return out
  }
  const compact = () => {
    const [value, size] = readCompactU16(bytes, at)
    at += size
    return value
  }
  const signatures = Array.from({ length: compact() }, () => take(64))
  const messageStart = at
  const header = [...take(3)]
  const accountKeys = Array.from({ length: compact() }, () => base58.encode(take(32)))
  const recentBlockhash = take(32)
  const instructions = Array.from({ length: compact() }, () => {
    const programIdIndex = take(1)[0] as number
    const accounts = [...take(compact())]
    const data = take(compact())
    return { programIdIndex, accounts, data }
  })
  return {
    signatures,
    message: bytes.slice(messageStart),
    header,
    accountKeys,
    recentBlockhash,
    instructions,
    rest: bytes.length - at,
  }
}

const ADDRESS = base58.encode(Uint8Array.from({ length: 32 }, (_, i) => i + 1))

describe('compactU16 (Solana shortvec)', () => {
  it.each([
    [0, [0x00]],
    [1, [0x01]],
    [127, [0x7f]],
    [128, [0x80, 0x01]],
    [255, [0xff, 0x01]],
    [16383, [0xff, 0x7f]],
    [16384, [0x80, 0x80, 0x01]],
  ])('%i → %j', (value, bytes) => {
    expect(compactU16(value)).toEqual(bytes)
    expect(readCompactU16(Uint8Array.from(bytes), 0)).toEqual([value, bytes.length])
  })
})

describe('buildMemoTransaction', () => {
  it('is one empty signature then a legacy message: header, [payer, memo program], zero blockhash', () => {
    const tx = parseTransaction(buildMemoTransaction(ADDRESS, 'hello'))
    expect(tx.signatures).toEqual([new Uint8Array(64)])
    // 1 required signature, 0 read-only signed, 1 read-only unsigned (the program).
    expect(tx.header).toEqual([1, 0, 1])
    expect(tx.accountKeys).toEqual([ADDRESS, MEMO_PROGRAM_ID])
    expect(tx.recentBlockhash).toEqual(new Uint8Array(32))
    expect(tx.rest).toBe(0)
  })

  it('has one memo instruction signed by the payer whose data is the memo text (UTF-8)', () => {
    const memo = 'app.test wants you to sign in with your Solana account:\nZoë ✓'
    const tx = parseTransaction(buildMemoTransaction(ADDRESS, memo))
    expect(tx.instructions).toHaveLength(1)
    const [instruction] = tx.instructions
    expect(instruction?.programIdIndex).toBe(1)
    expect(instruction?.accounts).toEqual([0])
    expect(new TextDecoder().decode(instruction?.data)).toBe(memo)
  })

  it('ends with the memo bytes, after a two-byte length once the memo is 128 bytes or more', () => {
    const memo = 'x'.repeat(300)
    const bytes = buildMemoTransaction(ADDRESS, memo)
    const data = new TextEncoder().encode(memo)
    expect(bytes.slice(-data.length)).toEqual(data)
    expect([...bytes.slice(-data.length - 2, -data.length)]).toEqual(compactU16(300))
    expect(new TextDecoder().decode(parseTransaction(bytes).instructions[0]?.data)).toBe(memo)
  })

  it('puts the message right after the signature slot (what the wallet signs)', () => {
    const bytes = buildMemoTransaction(ADDRESS, 'm')
    const tx = parseTransaction(bytes)
    expect(tx.message).toEqual(bytes.slice(65))
    expect(bytes[0]).toBe(1)
  })

  it('rejects an address that is not base58', () => {
    expect(() => buildMemoTransaction('not-base58-0OIl', 'm')).toThrow()
  })
})
