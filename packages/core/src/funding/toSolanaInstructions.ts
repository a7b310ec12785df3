import type { AccountRole, Address, Instruction } from '@solana/kit'
import { LatchkeyError } from '../errors.ts'
import type { BridgeSolanaTransaction } from './createBridgeClient.ts'

// @solana/kit's AccountRole bit flags (signer 0b10, writable 0b01), spelled
// out so this file loads no Solana library at run time.
const role = (isSigner: boolean, isWritable: boolean) =>
  ((isSigner ? 2 : 0) | (isWritable ? 1 : 0)) as AccountRole

/**
 * The Solana deposit of a bridge quote (Solana → Ethereum, spec 03 §7
 * "Bridging") as @solana/kit instructions, ready for
 * `appendTransactionMessageInstructions`. Relay sends each instruction's
 * data as hex; a malformed one is BRIDGE_QUOTE_FAILED.
 *
 * @example
 * const quote = await bridge.quote({ user: solanaAddress, originChainId: RELAY_SOLANA_CHAIN_ID, … })
 * if (quote.tx.kind === 'solana') {
 *   const message = pipe(
 *     createTransactionMessage({ version: 0 }),
 *     (m) => setTransactionMessageFeePayer(address(solanaAddress), m),
 *     (m) => setTransactionMessageLifetimeUsingBlockhash(latestBlockhash, m),
 *     (m) => appendTransactionMessageInstructions(toSolanaInstructions(quote.tx), m),
 *   )
 * }
 */
export function toSolanaInstructions(tx: BridgeSolanaTransaction): Instruction[] {
  return tx.instructions.map((instruction) => ({
    programAddress: instruction.programId as Address,
    accounts: instruction.keys.map((key) => ({
      address: key.pubkey as Address,
      role: role(key.isSigner, key.isWritable),
    })),
    data: hexToBytes(instruction.data),
  }))
}

function hexToBytes(hex: string): Uint8Array {
  const digits = hex.startsWith('0x') ? hex.slice(2) : hex
  if (digits.length % 2 !== 0 || !/^[0-9a-fA-F]*$/.test(digits))
    throw new LatchkeyError(
      'BRIDGE_QUOTE_FAILED',
      'The bridge quote has malformed instruction data',
    )
  const bytes = new Uint8Array(digits.length / 2)
  for (let i = 0; i < bytes.length; i++)
    bytes[i] = Number.parseInt(digits.slice(i * 2, i * 2 + 2), 16)
  return bytes
}
