import type { ErrorCode } from './error-codes.ts'
import type { UserMessage } from './user-message.ts'

/** Spec 03 §8 "Transactions": the transaction codes' wording (docs/transactions.md). */
export const transactionErrorMessages = {
  EMBEDDED_WALLET_NOT_FOUND: { title: 'No wallet found for address' },
  UNABLE_TO_SIGN: { title: 'No embedded or connected wallet found for address.' },
  UNKNOWN_CONNECT_WALLET_ERROR: { title: 'Unable to connect to wallet', retryable: true },
  // Not the spec's words for Ethereum (it gives only the Solana one): both chains say it alike.
  INSUFFICIENT_BALANCE: { title: 'Wallet has insufficient funds for this transaction.' },
  // Not the spec's words: its Solana fallback 'Something went wrong.' is used only when a failed
  // Solana transaction's logs say nothing better (core solanaErrorMessage).
  TRANSACTION_FAILURE: {
    title: 'The transaction could not be completed',
    detail: 'Please try again.',
    retryable: true,
  },
  TRANSACTION_REVERTED: {
    title: 'Transaction failed',
    detail: 'Please try again.',
    retryable: true,
  },
  TRANSACTION_PREPARE_FAILED: {
    title:
      'There was an error preparing your transaction. Your transaction request will likely fail.',
  },
  TRANSACTION_PREPARE_ERROR: {
    title: 'There was an issue preparing your transaction',
    retryable: true,
  },
  TRANSACTION_SIGN_FAILED: {
    title: 'Failed to sign transaction',
    detail: 'An error has occurred, please try again.',
    retryable: true,
  },
  INVALID_TRANSACTION_REQUEST: { title: 'Invalid transaction request' },
  REQUEST_TIMEOUT: { title: 'Request timeout', retryable: true },
  // Prices: never shown on a screen (spec 03 §7: no fiat price is shown), worded for logs and hosts.
  PRICES_NOT_CONFIGURED: { title: 'This server has no token price source configured' },
  UNKNOWN_TOKEN: { title: 'No price is known for this token' },
  PRICE_UNAVAILABLE: { title: 'The token price could not be fetched', retryable: true },
} satisfies Partial<Record<ErrorCode, UserMessage>>
