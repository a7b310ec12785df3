/**
 * The first signature of a signed Solana wire transaction: the fee payer's,
 * which names the transaction. The wire opens with the signature count as a
 * compact-u16 (1 to 3 bytes, 7 bits each), then 64 bytes per signature.
 *
 * @example
 * firstSignature(signedTransaction) // Uint8Array(64)
 */
export function firstSignature(wire: Uint8Array): Uint8Array {
  let count = 0
  let offset = 0
  for (let shift = 0; offset < 3; shift += 7) {
    const byte = wire[offset++] ?? 0
    count |= (byte & 0x7f) << shift
    if ((byte & 0x80) === 0) break
  }
  if (count === 0 || wire.length < offset + 64)
    throw new RangeError('Not a signed Solana wire transaction')
  return wire.slice(offset, offset + 64)
}
