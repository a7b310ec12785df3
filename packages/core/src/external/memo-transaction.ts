import { base58 } from '@scure/base'

/** The SPL Memo program (v2). */
export const MEMO_PROGRAM_ID = 'MemoSq4gqABAXKb96qnH8TysNcWxMyWCqXgDLGmfcHr'

/** Solana's compact-u16 ("shortvec") length prefix. */
export function compactU16(value: number): number[] {
  const out: number[] = []
  let rest = value
  for (;;) {
    const byte = rest & 0x7f
    rest >>= 7
    if (rest === 0) {
      out.push(byte)
      return out
    }
    out.push(byte | 0x80)
  }
}

/**
 * An unsigned legacy transaction with one Memo instruction whose data is
 * `memo`, paid and signed by `address`: what a Ledger signs instead of a
 * message (SIWS `message_type: 'transaction'`). It is never sent, so its
 * recent blockhash is all zeros. Wire format: signature count, empty
 * signature, then the message (header, account keys, blockhash,
 * instructions).
 */
export function buildMemoTransaction(address: string, memo: string): Uint8Array {
  const payer = base58.decode(address)
  const program = base58.decode(MEMO_PROGRAM_ID)
  const data = new TextEncoder().encode(memo)
  const message = [
    // 1 required signature, 0 read-only signed, 1 read-only unsigned (the program).
    1,
    0,
    1,
    ...compactU16(2),
    ...payer,
    ...program,
    ...new Uint8Array(32),
    ...compactU16(1),
    // program id index 1; accounts [0] (the signer, checked by the memo program); data.
    1,
    ...compactU16(1),
    0,
    ...compactU16(data.length),
    ...data,
  ]
  return Uint8Array.from([...compactU16(1), ...new Uint8Array(64), ...message])
}
