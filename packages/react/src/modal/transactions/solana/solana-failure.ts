import { LatchkeyError } from '@latchkey/core'
import { SOLANA_FALLBACK_ERROR_MESSAGE, solanaErrorMessage } from '@latchkey/core/solana'
import type { TransactionFailure } from '../transaction-failure.ts'

/**
 * Reads a failed Solana submit for the error screen (spec 03 §8: "Solana
 * errors prefer a log line about insufficient lamports or funds; the
 * fallback is 'Something went wrong.'"). The title is that log line from
 * `details.logs` (core puts the node's logs there), else the fallback; a
 * LatchkeyError adds its code, and its message when it says more; a
 * signature in `details` is shown with copy and explorer link.
 */
export function solanaFailure(error: unknown): TransactionFailure {
  if (!(error instanceof LatchkeyError)) {
    const message = error instanceof Error ? error.message : String(error)
    return { title: SOLANA_FALLBACK_ERROR_MESSAGE, ...(message ? { message } : {}) }
  }
  const details = (error.details ?? {}) as { logs?: unknown; signature?: unknown }
  const logs = Array.isArray(details.logs)
    ? details.logs.filter((l): l is string => typeof l === 'string')
    : null
  const title = solanaErrorMessage(logs)
  const message = error.shortMessage !== title ? error.shortMessage : undefined
  return {
    code: error.code,
    title,
    ...(message ? { message } : {}),
    // A base58 signature where the shared view has an Ethereum hash: it only shows and links it.
    ...(typeof details.signature === 'string'
      ? { hash: details.signature as TransactionFailure['hash'] }
      : {}),
  }
}
