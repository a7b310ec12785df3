/** Spec 03 §8: what a failed Solana transaction says when its logs name nothing better. */
export const SOLANA_FALLBACK_ERROR_MESSAGE = 'Something went wrong.'

const ABOUT_FUNDS = /insufficient (lamports|funds)/i

/**
 * The message to show for a failed Solana transaction (spec 03 §8: "Solana
 * errors prefer a log line about insufficient lamports or funds; the fallback
 * is 'Something went wrong.'"): the first log line that speaks of
 * insufficient lamports or funds, without the runtime's `Program log: `
 * prefix, else the fallback.
 *
 * @example
 * solanaErrorMessage(['Program 11111111111111111111111111111111 invoke [1]',
 *   'Transfer: insufficient lamports 5000, need 10000'])
 * // 'Transfer: insufficient lamports 5000, need 10000'
 */
export function solanaErrorMessage(logs: readonly string[] | null | undefined): string {
  const line = logs?.find((log) => ABOUT_FUNDS.test(log))
  return line?.replace(/^Program log:\s*/, '').trim() || SOLANA_FALLBACK_ERROR_MESSAGE
}
