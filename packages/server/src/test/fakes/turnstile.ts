import { listen, parseForm, randomToken, sendJson } from './http.ts'

/**
 * A local Cloudflare Turnstile siteverify for tests, answering as
 * https://developers.cloudflare.com/turnstile/get-started/server-side-validation/
 * documents: POST form fields `secret`, `response`, `remoteip`,
 * `idempotency_key`; answer `{ success, error-codes, challenge_ts, hostname }`.
 * Tokens are minted with {@link FakeTurnstile.issueToken} (what the widget
 * would hand the browser); each redeems once, within 300 s, and a second
 * redemption is `timeout-or-duplicate` — unless it repeats the first call's
 * `idempotency_key`, which Cloudflare answers as the first time.
 */
export interface FakeTurnstile {
  /** The siteverify URL to configure (`captcha.turnstileSiteverifyUrl`). */
  url: string
  /** A token as if solved on `hostname` now (default 'app.test'; null: the answer names none). */
  issueToken(options?: { hostname?: string | null; solvedAt?: number }): string
  /** Every siteverify call, in order. */
  calls: Array<Record<string, string>>
  /** 'ok' (default), 'error' (answers 500) or 'hang' (never answers). */
  setMode(mode: 'ok' | 'error' | 'hang'): void
  close(): Promise<void>
}

/** Cloudflare: a token is valid for 300 s. */
const TOKEN_TTL_MS = 300_000

export async function startFakeTurnstile(options: {
  secret: string
  now?: () => number
}): Promise<FakeTurnstile> {
  const now = options.now ?? Date.now
  const issued = new Map<string, { hostname: string | null; solvedAt: number }>()
  const redeemed = new Map<string, string | undefined>()
  const calls: Array<Record<string, string>> = []
  let mode: 'ok' | 'error' | 'hang' = 'ok'
  const fail = (codes: string[]) => ({ success: false, 'error-codes': codes, messages: [] })
  const server = await listen((req, res) => {
    if (req.method !== 'POST' || req.url.pathname !== '/turnstile/v0/siteverify')
      return sendJson(res, 404, { error: 'not found' })
    if (mode === 'hang') return
    if (mode === 'error') return sendJson(res, 500, { error: 'internal' })
    const type = String(req.headers['content-type'] ?? '')
    const fields: Record<string, string> = type.includes('application/json')
      ? JSON.parse(req.body.toString('utf8'))
      : Object.fromEntries(parseForm(req.body))
    calls.push(fields)
    if (!fields.secret) return sendJson(res, 200, fail(['missing-input-secret']))
    if (fields.secret !== options.secret) return sendJson(res, 200, fail(['invalid-input-secret']))
    if (!fields.response) return sendJson(res, 200, fail(['missing-input-response']))
    const token = issued.get(fields.response)
    if (!token) return sendJson(res, 200, fail(['invalid-input-response']))
    const key = fields.idempotency_key
    const again = redeemed.has(fields.response)
    const sameCall = again && key !== undefined && redeemed.get(fields.response) === key
    if ((again && !sameCall) || now() - token.solvedAt > TOKEN_TTL_MS)
      return sendJson(res, 200, fail(['timeout-or-duplicate']))
    redeemed.set(fields.response, key)
    sendJson(res, 200, {
      success: true,
      'error-codes': [],
      challenge_ts: new Date(token.solvedAt).toISOString(),
      ...(token.hostname === null ? {} : { hostname: token.hostname }),
      action: '',
      cdata: '',
      metadata: { interactive: false },
    })
  })
  return {
    url: `${server.url}/turnstile/v0/siteverify`,
    calls,
    issueToken({ hostname = 'app.test', solvedAt = now() } = {}) {
      const token = randomToken('0.fake-turnstile.', 48)
      issued.set(token, { hostname, solvedAt })
      return token
    },
    setMode(next) {
      mode = next
    },
    close: () => server.close(),
  }
}
