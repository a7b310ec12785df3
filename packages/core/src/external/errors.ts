import { WALLET_RPC_TIMEOUT_MS } from '@latchkey/protocol/constants'
import { LatchkeyError } from '../errors.ts'

/** The numeric `code` of an EIP-1193 / JSON-RPC error, wherever a wallet put it. */
export function providerErrorCode(error: unknown): number | undefined {
  let current: unknown = error
  for (let depth = 0; depth < 4 && current && typeof current === 'object'; depth++) {
    const code = (current as { code?: unknown }).code
    if (typeof code === 'number') return code
    if (typeof code === 'string' && /^-?\d+$/.test(code)) return Number(code)
    // Wallets wrap the real error in `data.originalError`, `cause` or `error`.
    const c = current as { data?: { originalError?: unknown }; cause?: unknown; error?: unknown }
    current = c.data?.originalError ?? c.cause ?? c.error
  }
  return undefined
}

/**
 * Translates whatever a wallet threw into the one error type, in one place
 * (spec 01 §8 "Wallet provider codes"): 4001 → "You rejected the request",
 * -32002 → a request already pending or a locked wallet, 4900/4901 →
 * "Disconnected", a timeout → "Wallet request timed out"; anything else is
 * "Could not log in with wallet". LatchkeyErrors pass through unchanged.
 *
 * @example
 * try { await provider.request({ method: 'eth_requestAccounts' }) }
 * catch (error) { throw toWalletError(error) }
 */
export function toWalletError(error: unknown): LatchkeyError {
  if (error instanceof LatchkeyError) return error
  const code = providerErrorCode(error)
  const message = error instanceof Error ? error.message : undefined
  const options = { cause: error, details: { providerCode: code } }
  switch (code) {
    case 4001:
    case 5000: // Coinbase Wallet's user rejection
      return new LatchkeyError('WALLET_USER_REJECTED', undefined, options)
    case -32002:
      return new LatchkeyError('WALLET_REQUEST_PENDING', undefined, options)
    case 4900:
    case 4901:
      return new LatchkeyError('WALLET_DISCONNECTED', undefined, options)
    case 4902:
      return new LatchkeyError('UNSUPPORTED_CHAIN', message, options)
    default:
      // Wallet Standard wallets reject with plain Errors; the usual words for "no".
      if (code === undefined && message && /user (rejected|denied|cancel)/i.test(message))
        return new LatchkeyError('WALLET_USER_REJECTED', undefined, options)
      return new LatchkeyError('WALLET_LOGIN_FAILED', message, options)
  }
}

/**
 * Rejects with WALLET_REQUEST_TIMEOUT when the wallet has not answered in
 * `ms` (default WALLET_RPC_TIMEOUT_MS, 120 s); other failures go through
 * {@link toWalletError}.
 */
export function withWalletTimeout<T>(
  promise: Promise<T>,
  ms: number = WALLET_RPC_TIMEOUT_MS,
): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined
  const timeout = new Promise<never>((_, reject) => {
    // Spec 01 §8: the provider-level message is 'Wallet timeout'; users read the catalogue's title.
    timer = setTimeout(
      () => reject(new LatchkeyError('WALLET_REQUEST_TIMEOUT', 'Wallet timeout')),
      ms,
    )
  })
  return Promise.race([promise, timeout])
    .catch((error: unknown) => {
      throw toWalletError(error)
    })
    .finally(() => clearTimeout(timer))
}
