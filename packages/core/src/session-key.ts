/**
 * How long a login waits for the enclave's device key before it goes ahead
 * without one (docs/security.md "Key routes answer only to the enclave").
 * The enclave is framed when the app mounts, so its key is normally known
 * long before the user submits a login.
 */
export const ENCLAVE_KEY_WAIT_MS = 5_000

/**
 * Produces the RFC 7638 thumbprint of the enclave key the next login binds
 * its session to; null or undefined when there is none.
 */
export type SessionKeyProvider = () => Promise<string | null | undefined>

/** Why a login went ahead without a key. */
export type MissingSessionKeyReason = 'timeout' | 'error' | 'unavailable'

/**
 * Asks `provider` for the session key, waiting at most `timeoutMs`: a
 * provider that fails, answers nothing or never answers does not hold the
 * login up. `onMissing` is told why there is no key.
 *
 * @example
 * const jkt = await waitForSessionKey(provider, { timeoutMs: ENCLAVE_KEY_WAIT_MS, onMissing: warn })
 */
export function waitForSessionKey(
  provider: SessionKeyProvider,
  options: { timeoutMs: number; onMissing?: (reason: MissingSessionKeyReason) => void },
): Promise<string | undefined> {
  return new Promise((resolve) => {
    let settled = false
    const settle = (key: string | null | undefined, reason: MissingSessionKeyReason) => {
      if (settled) return
      settled = true
      clearTimeout(timer)
      if (!key) options.onMissing?.(reason)
      resolve(key || undefined)
    }
    const timer = setTimeout(() => settle(undefined, 'timeout'), options.timeoutMs)
    let answer: Promise<string | null | undefined>
    try {
      answer = provider()
    } catch {
      answer = Promise.reject(new Error('The session key provider threw'))
    }
    answer.then(
      (key) => settle(key, 'unavailable'),
      () => settle(undefined, 'error'),
    )
  })
}
