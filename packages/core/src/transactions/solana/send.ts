import {
  type Base64EncodedWireTransaction,
  getBase58Decoder,
  getBase64Decoder,
  getTransactionDecoder,
  isSolanaError,
  type Signature,
  SOLANA_ERROR__JSON_RPC__SERVER_ERROR_SEND_TRANSACTION_PREFLIGHT_FAILURE,
  SOLANA_ERROR__TRANSACTION_ERROR__ACCOUNT_NOT_FOUND,
  SOLANA_ERROR__TRANSACTION_ERROR__INSUFFICIENT_FUNDS_FOR_FEE,
} from '@solana/kit'
import { LatchkeyError } from '../../errors.ts'
import { poll } from '../../poll.ts'
import { solanaErrorMessage } from './error-message.ts'
import type { SolanaClient } from './rpc.ts'
import type { SolanaSendResult } from './types.ts'

export interface SendSolanaTransactionParameters {
  rpc: SolanaClient
  /** The wire transaction to sign and send (legacy or v0). */
  transaction: Uint8Array
  /** Signs the wire bytes (the enclave, or a connected wallet) and resolves to the signed wire transaction. */
  sign: (wire: Uint8Array) => Promise<Uint8Array>
  /**
   * Send without the node's simulation (default false). A failing
   * transaction then lands and pays its fee; its failure shows in the
   * confirmation instead.
   */
  skipPreflight?: boolean
  /** Time between two status checks (default POLL_INTERVAL_MS, 150 ms). */
  pollIntervalMs?: number
  /** Status checks in all (default POLL_ATTEMPTS, 270: about 40 s). */
  pollAttempts?: number
  /** Stops waiting for the confirmation (the transaction may still land). */
  signal?: AbortSignal
}

export type SendSolanaTransactionReturnType = SolanaSendResult

/** What `details` holds on the errors this throws once the transaction is signed. */
export interface SolanaTransactionErrorDetails {
  signature: string
  logs: string[] | null
}

function signatureOf(signed: Uint8Array): Signature {
  const first = getTransactionDecoder().decode(signed).signatures
  const bytes = Object.values(first)[0]
  if (!bytes || bytes.every((byte) => byte === 0)) {
    throw new LatchkeyError('TRANSACTION_SIGN_FAILED', 'The fee payer did not sign')
  }
  return getBase58Decoder().decode(bytes) as Signature
}

function failure(signature: string, logs: readonly string[] | null | undefined, cause?: unknown) {
  const details: SolanaTransactionErrorDetails = { signature, logs: logs ? [...logs] : null }
  return new LatchkeyError('TRANSACTION_FAILURE', solanaErrorMessage(logs), { details, cause })
}

/** A node's refusal of `sendTransaction`, with the simulation's logs when it ran one. */
function refusal(signature: string, error: unknown): LatchkeyError {
  if (
    !isSolanaError(error, SOLANA_ERROR__JSON_RPC__SERVER_ERROR_SEND_TRANSACTION_PREFLIGHT_FAILURE)
  ) {
    return failure(signature, null, error)
  }
  const cause = error.cause
  const cannotPayFee =
    isSolanaError(cause, SOLANA_ERROR__TRANSACTION_ERROR__INSUFFICIENT_FUNDS_FOR_FEE) ||
    isSolanaError(cause, SOLANA_ERROR__TRANSACTION_ERROR__ACCOUNT_NOT_FOUND)
  if (cannotPayFee) {
    const details: SolanaTransactionErrorDetails = { signature, logs: error.context.logs ?? null }
    return new LatchkeyError('INSUFFICIENT_BALANCE', 'Insufficient funds for fee', {
      details,
      cause: error,
    })
  }
  return failure(signature, error.context.logs, error)
}

/**
 * Signs, sends and confirms a Solana transaction (spec 03 §4 "Solana
 * transaction", §7 "Chain RPC"): `sign` turns the wire bytes into a signed
 * transaction, `sendTransaction` submits it (base64), `getSignatureStatuses`
 * is polled until it is confirmed, and `getTransaction` gives its fee and
 * logs. A transaction the node refuses or that fails on chain rejects with
 * `TRANSACTION_FAILURE`, `details` `{ signature, logs }` and, as
 * `shortMessage`, a log line about insufficient lamports or funds when there
 * is one (spec 03 §8). A fee payer that cannot pay the fee is
 * `INSUFFICIENT_BALANCE`; no confirmation in time is `REQUEST_TIMEOUT`.
 * A LatchkeyError from `sign` passes through; anything else it throws is
 * `TRANSACTION_SIGN_FAILED`.
 *
 * @example
 * const result = await sendSolanaTransaction({
 *   rpc,
 *   transaction,
 *   sign: (wire) => wallet.signTransaction(wire),
 * })
 * console.log(result.signature, result.fees)
 */
export async function sendSolanaTransaction({
  rpc,
  transaction,
  sign,
  skipPreflight = false,
  pollIntervalMs,
  pollAttempts,
  signal,
}: SendSolanaTransactionParameters): Promise<SendSolanaTransactionReturnType> {
  const signed = await sign(transaction).catch((error: unknown) => {
    if (error instanceof LatchkeyError) throw error
    throw new LatchkeyError('TRANSACTION_SIGN_FAILED', undefined, { cause: error })
  })
  const signature = signatureOf(signed)
  const wire = getBase64Decoder().decode(signed) as Base64EncodedWireTransaction
  try {
    await rpc
      .sendTransaction(wire, { encoding: 'base64', skipPreflight })
      .send({ abortSignal: signal })
  } catch (error) {
    throw refusal(signature, error)
  }

  // Nodes answer errors while a transaction propagates: keep asking, and name
  // the last one if the attempts run out.
  let lastError: unknown
  const options = { intervalMs: pollIntervalMs, attempts: pollAttempts, signal }
  const confirmed = await poll(async () => {
    try {
      const { value } = await rpc.getSignatureStatuses([signature]).send({ abortSignal: signal })
      const status = value[0]
      const settled =
        status?.confirmationStatus === 'confirmed' || status?.confirmationStatus === 'finalized'
      if (!status || (!settled && !status.err)) return undefined
      const landed = await rpc
        .getTransaction(signature, { encoding: 'json', maxSupportedTransactionVersion: 0 })
        .send({ abortSignal: signal })
      return landed ?? undefined
    } catch (error) {
      lastError = error
      return undefined
    }
  }, options)
  if (!confirmed) {
    const details: SolanaTransactionErrorDetails = { signature, logs: null }
    throw new LatchkeyError('REQUEST_TIMEOUT', 'The transaction was not confirmed in time', {
      details,
      cause: lastError,
    })
  }
  const { meta, slot } = confirmed
  const logMessages = meta?.logMessages ? [...meta.logMessages] : null
  if (meta?.err) throw failure(signature, logMessages)
  return {
    signature,
    transaction: signed,
    fees: meta ? BigInt(meta.fee) : 0n,
    receipt: { slot: BigInt(slot), err: meta?.err ?? null, logMessages },
  }
}
