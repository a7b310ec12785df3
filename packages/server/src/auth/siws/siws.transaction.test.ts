import { base58, base64 } from '@scure/base'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { getTestInstance, type TestInstance } from '../../test/instance.ts'
import { failureReason, WALLET_APP_SETTINGS } from '../siwe/testing.ts'
import { memoTransaction, postSiws, signInText, siwsInit, solanaKeypair } from './testing.ts'
import { MEMO_PROGRAM_IDS, parseSolanaTransaction } from './transaction.ts'

// Ledger can only sign transactions: the sign-in text travels as a Memo
// instruction of a signed (never sent) transaction; the signature is over
// the transaction's message bytes (security bar 20, SIWS `transaction`).
let t: TestInstance
beforeAll(async () => {
  t = await getTestInstance({ appSettings: WALLET_APP_SETTINGS })
})
afterAll(() => t.close())

/** The payer's signature out of a serialized transaction (after its 1-byte count). */
const signatureOf = (transaction: string) => base64.encode(base64.decode(transaction).slice(1, 65))

describe('SIWS transaction sign-in (Ledger)', () => {
  it.each([
    ['legacy', MEMO_PROGRAM_IDS[0]],
    [0, MEMO_PROGRAM_IDS[0]],
    ['legacy', MEMO_PROGRAM_IDS[1]],
  ] as const)(
    'logs in with a %s transaction whose memo (%s) is the message',
    async (version, memoProgram) => {
      const payer = solanaKeypair()
      const input = await siwsInit(t, payer.address)
      const message = memoTransaction({ payer, memos: [signInText(input)], version, memoProgram })
      const res = await postSiws(t, {
        message,
        signature: signatureOf(message),
        message_type: 'transaction',
        wallet_client_type: 'ledger',
      })
      expect(res.status).toBe(200)
      expect(res.body.user.linked_accounts[0]).toMatchObject({
        address: payer.address,
        chain_type: 'solana',
        wallet_client_type: 'ledger',
      })
    },
  )

  it('refuses a memo that is not the sign-in input', async () => {
    const payer = solanaKeypair()
    const input = await siwsInit(t, payer.address)
    const message = memoTransaction({ payer, memos: [signInText(input, { domain: 'evil.test' })] })
    const res = await postSiws(t, {
      message,
      signature: signatureOf(message),
      message_type: 'transaction',
    })
    expect(failureReason(res)).toBe('signed_field_mismatch')
  })

  it('refuses a transaction altered after signing, or signed by another key', async () => {
    const payer = solanaKeypair()
    const input = await siwsInit(t, payer.address)
    const text = signInText(input)
    const signed = memoTransaction({ payer, memos: [text] })
    // The same transaction with another blockhash: the signature no longer covers it.
    const altered = memoTransaction({ payer, memos: [text] })
    const res = await postSiws(t, {
      message: altered,
      signature: signatureOf(signed),
      message_type: 'transaction',
    })
    expect(failureReason(res)).toBe('invalid_signature')
    // Paid and signed by another key, the address only named in the memo.
    const other = solanaKeypair()
    const byOther = memoTransaction({ payer: other, memos: [text] })
    const res2 = await postSiws(t, {
      message: byOther,
      signature: signatureOf(byOther),
      message_type: 'transaction',
    })
    expect(failureReason(res2)).toBe('invalid_signature')
  })

  it('refuses what is not one transaction with one memo', async () => {
    const payer = solanaKeypair()
    const input = await siwsInit(t, payer.address)
    const text = signInText(input)
    const twoMemos = memoTransaction({ payer, memos: [text, text] })
    const noMemo = memoTransaction({ payer, memos: [] })
    const trailing = base64.encode(
      Uint8Array.from([...base64.decode(memoTransaction({ payer, memos: [text] })), 0]),
    )
    for (const message of [
      twoMemos,
      noMemo,
      trailing,
      'not base64!',
      base64.encode(new Uint8Array(3)),
    ]) {
      const res = await postSiws(t, {
        message,
        signature: base64.encode(new Uint8Array(64)),
        message_type: 'transaction',
      })
      expect(failureReason(res)).toBe('malformed_transaction')
    }
  })
})

describe('parseSolanaTransaction', () => {
  it('knows the Memo programs by their 32-byte ids', () => {
    for (const id of MEMO_PROGRAM_IDS) expect(base58.decode(id)).toHaveLength(32)
  })

  it('reads signers, memo and the signed message bytes of legacy and v0 transactions', () => {
    const payer = solanaKeypair()
    const text = 'x'.repeat(300) // a two-byte compact-u16 length
    for (const version of ['legacy', 0] as const) {
      const bytes = base64.decode(memoTransaction({ payer, memos: [text], version }))
      const tx = parseSolanaTransaction(bytes)
      expect(tx.version).toBe(version)
      expect(tx.signers).toEqual([payer.address])
      expect(tx.message).toEqual(bytes.slice(65))
      expect(new TextDecoder().decode(tx.instructions[0]?.data)).toBe(text)
    }
  })

  it('refuses non-minimal lengths and unknown versions', () => {
    const payer = solanaKeypair()
    const bytes = base64.decode(memoTransaction({ payer, memos: ['hi'] }))
    // Signature count 1 written as two bytes (0x81 0x00).
    const padded = Uint8Array.from([0x81, 0x00, ...bytes.slice(1)])
    expect(() => parseSolanaTransaction(padded)).toThrow('Non-minimal length')
    const v1 = base64.decode(memoTransaction({ payer, memos: ['hi'], version: 0 }))
    v1[65] = 0x81
    expect(() => parseSolanaTransaction(v1)).toThrow('Unsupported transaction version')
  })
})
