import { type CaptchaSolver, LatchkeyError } from '@latchkey/core'
import { routes } from '@latchkey/protocol/routes'
import { type AltchaChallenge, solveAltchaChallenge } from './altcha-solve.ts'

/** docs/captcha.md: the server's challenges expire 5 minutes after it serves them. */
const CHALLENGE_LIFETIME_MS = 5 * 60_000

/**
 * How long a challenge just fetched stays usable. `expiresAt` is on the
 * server's clock: a local clock that puts it in the past or more than
 * 5 minutes ahead is off, and the server's 5 minutes count instead (the
 * altcha widget expired such a challenge at once, and solved it again
 * forever when its clock ran fast).
 */
function lifetimeMs(challenge: AltchaChallenge): number {
  const left = Number(challenge.parameters?.expiresAt) * 1000 - Date.now()
  return left > 0 && left <= CHALLENGE_LIFETIME_MS ? left : CHALLENGE_LIFETIME_MS
}

/** GET with no custom header, so a cross-origin page needs no CORS preflight (docs/captcha.md). */
async function fetchChallenge(url: URL, signal: AbortSignal): Promise<AltchaChallenge> {
  const res = await fetch(url, { signal })
  if (!res.ok) throw new LatchkeyError('CAPTCHA_FAILED')
  return (await res.json()) as AltchaChallenge
}

/**
 * The self-hosted ALTCHA captcha (docs/captcha.md), headless: each `solve()`
 * fetches a fresh challenge from the Latchkey server (app id in the query)
 * and solves it with WebCrypto (altcha-solve.ts), with no widget on the page.
 * Solving stops with CAPTCHA_FAILED when the signal aborts. `onExpire` runs
 * when the latest challenge expires — the token solved from it is stale, or
 * its search ends unsolved; a new solve, an abort or `dispose()` cancels it.
 *
 * @example
 * const solver = await createAltchaSolver({ apiUrl, appId, onExpire: () => captcha.expire() })
 * const token = await solver.solve(new AbortController().signal)
 */
export async function createAltchaSolver(options: {
  apiUrl: string
  appId: string
  onExpire(): void
}): Promise<CaptchaSolver> {
  const url = new URL(routes.captchaAltchaChallenge, options.apiUrl)
  url.searchParams.set('app_id', options.appId)
  let expiry: ReturnType<typeof setTimeout> | undefined
  const disarm = () => {
    clearTimeout(expiry)
    expiry = undefined
  }
  return {
    async solve(signal) {
      disarm()
      // Ends the fetch and the search: the caller aborts, or the challenge expires.
      const search = new AbortController()
      const stop = () => search.abort()
      signal.addEventListener('abort', stop)
      let timer: ReturnType<typeof setTimeout> | undefined
      try {
        const challenge = await fetchChallenge(url, search.signal)
        if (search.signal.aborted) throw new LatchkeyError('CAPTCHA_FAILED')
        timer = setTimeout(() => {
          expiry = undefined
          search.abort()
          options.onExpire()
        }, lifetimeMs(challenge))
        expiry = timer
        // A run the caller drops (reset, a refused token) takes its challenge's timer along.
        signal.addEventListener(
          'abort',
          () => {
            if (expiry === timer) disarm()
          },
          { once: true },
        )
        return await solveAltchaChallenge(challenge, search.signal)
      } catch (error) {
        // A failed run holds no token to expire.
        if (timer && expiry === timer) disarm()
        // Network errors, aborts and odd responses alike: the controller retries.
        throw error instanceof LatchkeyError ? error : new LatchkeyError('CAPTCHA_FAILED')
      } finally {
        signal.removeEventListener('abort', stop)
      }
    },
    dispose: disarm,
  }
}
