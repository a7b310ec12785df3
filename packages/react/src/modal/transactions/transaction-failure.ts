import { LatchkeyError } from '@latchkey/core'
import { type ErrorCode, errorMessages } from '@latchkey/protocol/errors'
import type { Hex } from 'viem'

/** What the transaction error screen shows (spec 03 §8 "Transaction error screen"). */
export interface TransactionFailure {
  /** Set for a LatchkeyError: shown as 'the error code'. */
  code?: ErrorCode
  /** The catalogue's title: the short message. */
  title: string
  /** The technical message, when it says more than the title (a revert reason, the node's words). */
  message?: string
  /** The transaction's hash, when it was broadcast (core puts it in `details.hash`). */
  hash?: Hex
}

const isHash = (value: unknown): value is Hex =>
  typeof value === 'string' && /^0x[0-9a-fA-F]{64}$/.test(value)

/**
 * Reads a failed submit for the error screen. A LatchkeyError gives its code
 * and the catalogue's title (TRANSACTION_REVERTED 'Transaction failed', …);
 * anything else is TRANSACTION_FAILURE's title with the error's own message.
 */
export function transactionFailure(error: unknown): TransactionFailure {
  if (error instanceof LatchkeyError) {
    const title = (errorMessages[error.code] ?? errorMessages.TRANSACTION_FAILURE).title
    const details = (error.details ?? {}) as { hash?: unknown; message?: unknown }
    const technical =
      error.shortMessage !== title
        ? error.shortMessage
        : typeof details.message === 'string'
          ? details.message
          : undefined
    return {
      code: error.code,
      title,
      ...(technical && technical !== title ? { message: technical } : {}),
      ...(isHash(details.hash) ? { hash: details.hash } : {}),
    }
  }
  const message = error instanceof Error ? error.message : String(error)
  return { title: errorMessages.TRANSACTION_FAILURE.title, ...(message ? { message } : {}) }
}
