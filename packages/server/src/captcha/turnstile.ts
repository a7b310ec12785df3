import { randomUUID } from 'node:crypto'
import { z } from 'zod'
import { getAppProviderCredentials } from '../apps/credentials.ts'
import type { AppRecord } from '../apps/service.ts'
import { ApiError } from '../errors.ts'
import type { CaptchaCheck } from './types.ts'

/**
 * Cloudflare's answer (https://developers.cloudflare.com/turnstile/get-started/server-side-validation/):
 * `success`, `error-codes`, and on success `challenge_ts` (ISO time the
 * widget was solved) and `hostname` (the site it was solved on).
 */
const siteverifyAnswerSchema = z.object({
  success: z.boolean(),
  'error-codes': z.array(z.string()).optional().default([]),
  challenge_ts: z.string().optional(),
  hostname: z.string().optional(),
})

/** Cloudflare: a token is valid for 300 s after it was solved. */
export const TURNSTILE_TOKEN_TTL_MS = 300_000

/** Error codes that mean the server (not the user) is at fault: block as an outage. */
const SERVER_SIDE_ERRORS = new Set([
  'missing-input-secret',
  'invalid-input-secret',
  'internal-error',
])

/**
 * The hostnames a Turnstile answer may name for a request from `origin`: the
 * request's app origin's, exactly. An Origin the app does not list (this
 * server's own pages) names none. A request without an Origin (server to
 * server; such a caller could send any Origin it likes) may use any of the
 * app's origins.
 */
function expectedHostnames(app: AppRecord, origin: string | undefined): string[] {
  if (origin === undefined) return app.allowedOrigins.map((allowed) => new URL(allowed).hostname)
  return app.allowedOrigins.includes(origin) ? [new URL(origin).hostname] : []
}

/**
 * Verifies a Turnstile token with siteverify before anything else runs.
 * Throws CAPTCHA_INVALID for an expired or already redeemed token
 * (`timeout-or-duplicate`, the widget must be reset), CAPTCHA_FAILED for any
 * other refusal or an answer whose hostname is missing or not the request's
 * app origin's, and CAPTCHA_TIMEOUT when
 * siteverify cannot be asked (network error, timeout, non-2xx, unreadable
 * answer, or our own secret refused): an unreachable verifier blocks
 * (security bar 49). Returns the lifetime left to the token, for the
 * single-use record.
 */
export async function verifyTurnstileToken({
  services,
  app,
  token,
  remoteIp,
  origin,
}: CaptchaCheck) {
  const credentials = await getAppProviderCredentials(services, app.id, 'turnstile')
  if (!credentials) throw new ApiError('CAPTCHA_TIMEOUT', 'Turnstile is not configured')
  const { turnstileSiteverifyUrl, turnstileTimeoutMs } = services.config.captcha
  const form = new URLSearchParams({
    secret: credentials.secret_key,
    response: token,
    // A retried siteverify call with the same key is answered as the first was.
    idempotency_key: randomUUID(),
  })
  if (remoteIp) form.set('remoteip', remoteIp)
  let answer: z.infer<typeof siteverifyAnswerSchema>
  try {
    const res = await fetch(turnstileSiteverifyUrl, {
      method: 'POST',
      body: form,
      signal: AbortSignal.timeout(turnstileTimeoutMs),
    })
    if (!res.ok) throw new Error(`siteverify answered ${res.status}`)
    answer = siteverifyAnswerSchema.parse(await res.json())
  } catch (error) {
    services.logger.warn(
      `turnstile siteverify failed for app ${app.id}: ${(error as Error).name}: ${(error as Error).message}`,
    )
    throw new ApiError('CAPTCHA_TIMEOUT')
  }
  const codes = answer['error-codes']
  if (!answer.success) {
    if (codes.includes('timeout-or-duplicate')) throw new ApiError('CAPTCHA_INVALID')
    if (codes.some((code) => SERVER_SIDE_ERRORS.has(code))) {
      services.logger.error(
        `turnstile siteverify refused app ${app.id}'s request: ${codes.join(',')}`,
      )
      throw new ApiError('CAPTCHA_TIMEOUT')
    }
    throw new ApiError('CAPTCHA_FAILED')
  }
  // The widget must have been solved on the page that makes this request: a
  // missing hostname, or another site's (even another origin of the same app), fails.
  if (!answer.hostname || !expectedHostnames(app, origin).includes(answer.hostname))
    throw new ApiError('CAPTCHA_FAILED')
  // Cloudflare refuses tokens older than 300 s itself; a stale answer is refused here too.
  const solvedAt = answer.challenge_ts ? Date.parse(answer.challenge_ts) : services.now()
  if (!Number.isFinite(solvedAt)) throw new ApiError('CAPTCHA_FAILED')
  const expiresAt = solvedAt + TURNSTILE_TOKEN_TTL_MS
  if (expiresAt <= services.now()) throw new ApiError('CAPTCHA_INVALID')
  return { replayKey: `turnstile:${token}`, expiresAt }
}
