import { type CaptchaSolver, LatchkeyError } from '@latchkey/core'

/** Cloudflare's loader; rendered explicitly, in execute mode. */
const SCRIPT_URL = 'https://challenges.cloudflare.com/turnstile/v0/api.js?render=explicit'

/**
 * Spec 01 §5: the site key must have Turnstile's form (a digit, 'x', then
 * 20+ URL-safe characters: `0x4AAAAAAA…`, test keys `1x00000000000000000000AA`).
 * The server checks the same form when the app is configured.
 */
export const TURNSTILE_SITE_KEY_PATTERN = /^[0-9]x[0-9A-Za-z_-]{20,64}$/

interface TurnstileApi {
  render(container: HTMLElement, options: Record<string, unknown>): string
  execute(widgetId: string): void
  reset(widgetId: string): void
  remove(widgetId: string): void
}

let script: Promise<TurnstileApi> | null = null
function loadTurnstile(): Promise<TurnstileApi> {
  script ??= new Promise<TurnstileApi>((resolve, reject) => {
    const el = document.createElement('script')
    el.src = SCRIPT_URL
    el.async = true
    el.onload = () => {
      const api = (globalThis as { turnstile?: TurnstileApi }).turnstile
      if (api) resolve(api)
      else reject(new Error('Turnstile did not load'))
    }
    el.onerror = () => {
      script = null
      el.remove()
      reject(new Error('Turnstile did not load'))
    }
    document.head.append(el)
  })
  return script
}

/**
 * Cloudflare Turnstile (docs/captcha.md): api.js loaded on first use, one
 * widget in execute mode that shows itself only if Cloudflare wants an
 * interaction (`appearance: interaction-only`). Each `solve()` resets and
 * executes it for a fresh token. A malformed site key fails at once with
 * CAPTCHA_INVALID_SITE_KEY.
 */
export async function createTurnstileSolver(options: {
  siteKey: string
  onExpire(): void
}): Promise<CaptchaSolver> {
  if (!TURNSTILE_SITE_KEY_PATTERN.test(options.siteKey))
    throw new LatchkeyError('CAPTCHA_INVALID_SITE_KEY')
  const turnstile = await loadTurnstile()
  const host = document.createElement('div')
  host.style.cssText = 'position:fixed;right:16px;bottom:16px;z-index:2147483647'
  document.body.append(host)
  let pending: { resolve(token: string): void; reject(error: unknown): void } | null = null
  const settle = (outcome: { token: string } | { error: LatchkeyError }) => {
    const p = pending
    pending = null
    if ('token' in outcome) p?.resolve(outcome.token)
    else p?.reject(outcome.error)
  }
  const id = turnstile.render(host, {
    sitekey: options.siteKey,
    execution: 'execute',
    appearance: 'interaction-only',
    callback: (token: string) => settle({ token }),
    'error-callback': () => {
      settle({ error: new LatchkeyError('CAPTCHA_FAILED') })
      return true
    },
    'timeout-callback': () => settle({ error: new LatchkeyError('CAPTCHA_TIMEOUT') }),
    'expired-callback': () => options.onExpire(),
  })
  return {
    solve(signal) {
      return new Promise<string>((resolve, reject) => {
        settle({ error: new LatchkeyError('CAPTCHA_FAILED') })
        pending = { resolve, reject }
        signal.addEventListener('abort', () =>
          settle({ error: new LatchkeyError('CAPTCHA_FAILED') }),
        )
        turnstile.reset(id)
        turnstile.execute(id)
      })
    },
    dispose() {
      turnstile.remove(id)
      host.remove()
    },
  }
}
