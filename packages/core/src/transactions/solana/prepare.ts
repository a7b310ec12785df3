import {
  type Address,
  type AddressesByLookupTableAddress,
  address,
  type Blockhash,
  type CompiledTransactionMessage,
  type CompiledTransactionMessageWithLifetime,
  fetchAddressesForLookupTables,
  getBase64Decoder,
  getCompiledTransactionMessageDecoder,
  getCompiledTransactionMessageEncoder,
  getTransactionDecoder,
  getTransactionEncoder,
  type ReadonlyUint8Array,
  type TransactionMessageBytes,
  type TransactionMessageBytesBase64,
} from '@solana/kit'
import { LatchkeyError } from '../../errors.ts'
import { decodeSolanaTransaction } from './decode.ts'
import type { SolanaClient } from './rpc.ts'
import type { PreparedSolanaTransaction } from './types.ts'

export interface PrepareSolanaTransactionParameters {
  rpc: SolanaClient
  /** The wallet that will sign (base58): the lamports it sends count against its balance. */
  wallet: string
  /** The wire transaction, legacy or v0, signed or not. */
  transaction: Uint8Array
}

export type PrepareSolanaTransactionReturnType = PreparedSolanaTransaction

type Message = Extract<CompiledTransactionMessage, { version: 'legacy' | 0 }> &
  CompiledTransactionMessageWithLifetime

function readMessage(wire: Uint8Array): { messageBytes: ReadonlyUint8Array; message: Message } {
  let messageBytes: ReadonlyUint8Array
  let message: CompiledTransactionMessage & CompiledTransactionMessageWithLifetime
  try {
    messageBytes = getTransactionDecoder().decode(wire).messageBytes
    message = getCompiledTransactionMessageDecoder().decode(messageBytes)
  } catch (cause) {
    throw new LatchkeyError('INVALID_TRANSACTION_REQUEST', 'Not a Solana wire transaction', {
      cause,
    })
  }
  if (message.version !== 'legacy' && message.version !== 0) {
    const text = `Unsupported Solana transaction version ${message.version}`
    throw new LatchkeyError('INVALID_TRANSACTION_REQUEST', text)
  }
  return { messageBytes, message: message as Message }
}

const withLifetime = (message: Message, blockhash: Blockhash): ReadonlyUint8Array =>
  getCompiledTransactionMessageEncoder().encode({ ...message, lifetimeToken: blockhash })

async function feeFor(rpc: SolanaClient, messageBytes: ReadonlyUint8Array, message: Message) {
  const ask = async (bytes: ReadonlyUint8Array) => {
    const encoded = getBase64Decoder().decode(bytes) as TransactionMessageBytesBase64
    return (await rpc.getFeeForMessage(encoded).send()).value
  }
  const fee = await ask(messageBytes)
  if (fee !== null) return fee
  // The node no longer knows the blockhash (retry refreshes it before sending):
  // the fee does not depend on it, so price the same message on a current one.
  const { value } = await rpc.getLatestBlockhash().send()
  const current = await ask(withLifetime(message, value.blockhash))
  if (current === null) throw new Error('getFeeForMessage answered null for a current blockhash')
  return current
}

/** The lookup tables' contents, or `{}` (placeholder addresses) when they cannot be read. */
async function lookupTables(rpc: SolanaClient, message: Message) {
  const tables =
    message.version === 0
      ? (message.addressTableLookups ?? []).map((l) => l.lookupTableAddress)
      : []
  if (!tables.length) return {}
  return fetchAddressesForLookupTables(tables, rpc).catch(
    () => ({}) as AddressesByLookupTableAddress,
  )
}

/**
 * Prepares a Solana transaction for the confirm screen (spec 03 §3 "Prepared
 * Solana transaction", §4 "Solana transaction"): its fee (`getFeeForMessage`),
 * the wallet's balance, its decoded instructions and whether the wallet can
 * pay: `hasFunds` is balance ≥ fee + the lamports the wallet sends in
 * `sol-transfer` and `create-account` instructions. A v0 message's lookup
 * tables are read so its instructions name real addresses. When the node no
 * longer knows the transaction's blockhash, the fee is that of the same
 * message on a current one (sending will need `refreshBlockhash`).
 *
 * @throws LatchkeyError `INVALID_TRANSACTION_REQUEST` for bytes that are not a
 * legacy or v0 transaction; `TRANSACTION_PREPARE_ERROR` when the node cannot
 * be read.
 *
 * @example
 * const prepared = await prepareSolanaTransaction({ rpc, wallet, transaction })
 * if (!prepared.hasFunds) showAddFunds(prepared.fee)
 */
export async function prepareSolanaTransaction({
  rpc,
  wallet,
  transaction,
}: PrepareSolanaTransactionParameters): Promise<PrepareSolanaTransactionReturnType> {
  const { messageBytes, message } = readMessage(transaction)
  let fee: bigint
  let balance: bigint
  let tables: AddressesByLookupTableAddress
  try {
    ;[fee, balance, tables] = await Promise.all([
      feeFor(rpc, messageBytes, message),
      rpc
        .getBalance(address(wallet))
        .send()
        .then((answer) => answer.value),
      lookupTables(rpc, message),
    ])
  } catch (cause) {
    throw new LatchkeyError('TRANSACTION_PREPARE_ERROR', undefined, { cause })
  }
  const decoded = decodeSolanaTransaction(transaction, { addressesByLookupTableAddress: tables })
  let sent = 0n
  for (const instruction of decoded.instructions) {
    const sends = instruction.type === 'sol-transfer' || instruction.type === 'create-account'
    if (sends && instruction.from === wallet) sent += instruction.lamports
  }
  return {
    fee,
    spender: decoded.feePayer,
    instructions: decoded.instructions,
    balance,
    hasFunds: balance >= fee + sent,
    version: decoded.version,
  }
}

const SYSTEM_PROGRAM = '11111111111111111111111111111111'
/** System `AdvanceNonceAccount` first: the lifetime is a durable nonce, not a blockhash. */
function usesDurableNonce(message: Message): boolean {
  const first = message.instructions[0]
  const program = first && message.staticAccounts[first.programAddressIndex]
  const data = first?.data
  return program === SYSTEM_PROGRAM && data?.length === 4 && data[0] === 4 && data[1] === 0
}

/**
 * The transaction with the node's latest blockhash in place of its own and
 * every signature cleared (spec 03 §4: retry refreshes the recent blockhash),
 * ready to be signed again. A durable-nonce transaction is returned as is.
 *
 * @example
 * const fresh = await refreshBlockhash(rpc, transaction)
 * const result = await sendSolanaTransaction({ rpc, transaction: fresh, sign })
 */
export async function refreshBlockhash(
  rpc: SolanaClient,
  transaction: Uint8Array,
): Promise<Uint8Array> {
  const { message } = readMessage(transaction)
  if (usesDurableNonce(message)) return transaction
  const { value } = await rpc.getLatestBlockhash().send()
  const messageBytes = withLifetime(message, value.blockhash) as TransactionMessageBytes
  const signers = message.staticAccounts.slice(0, message.header.numSignerAccounts)
  const signatures = Object.fromEntries(signers.map((signer: Address) => [signer, null]))
  return new Uint8Array(getTransactionEncoder().encode({ messageBytes, signatures }))
}
