import type { AttemptResult } from './claim.ts'
import { signWebhook } from './signature.ts'

export interface PostWebhookParameters {
  url: string
  /** The `webhook-id`. */
  id: string
  /** The body, exactly as signed. */
  payload: string
  /** Signing secrets, current first (two during a rotation). */
  secrets: readonly string[]
  /** The attempt's time (epoch ms): `webhook-timestamp`, in seconds. */
  now: number
  timeoutMs: number
  /** Aborts the attempt (the server is closing). */
  signal?: AbortSignal
  fetch?: typeof fetch
}

/**
 * One delivery attempt (Standard Webhooks, "Sending"): a POST of the body
 * with `webhook-id`, `webhook-timestamp` and `webhook-signature` (a `v1,`
 * signature per secret, space-separated). Any 2xx answer is a delivery;
 * anything else — another status, a redirect (not followed), no answer
 * within `timeoutMs`, a refused connection — is a failed attempt. The
 * answer's body is not read. Never throws.
 */
export async function postWebhook(parameters: PostWebhookParameters): Promise<AttemptResult> {
  const { url, id, payload, now, timeoutMs, signal } = parameters
  const timestamp = Math.floor(now / 1000)
  const signature = parameters.secrets
    .map((secret) => signWebhook(secret, id, timestamp, payload))
    .join(' ')
  const controller = new AbortController()
  let timedOut = false
  const timer = setTimeout(() => {
    timedOut = true
    controller.abort()
  }, timeoutMs)
  const onAbort = () => controller.abort()
  signal?.addEventListener('abort', onAbort)
  try {
    const response = await (parameters.fetch ?? fetch)(url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'user-agent': 'Latchkey-Webhooks/1',
        'webhook-id': id,
        'webhook-timestamp': String(timestamp),
        'webhook-signature': signature,
      },
      body: payload,
      redirect: 'manual',
      signal: controller.signal,
    })
    await response.body?.cancel().catch(() => {})
    const delivered = response.status >= 200 && response.status < 300
    return {
      delivered,
      status: response.status,
      error: delivered ? null : `HTTP ${response.status}`,
    }
  } catch (error) {
    if (timedOut)
      return { delivered: false, status: null, error: `no answer within ${timeoutMs} ms` }
    if (signal?.aborted) return { delivered: false, status: null, error: 'aborted: server closing' }
    const cause = (error as { cause?: { code?: unknown } }).cause
    const code = typeof cause?.code === 'string' ? ` (${cause.code})` : ''
    return { delivered: false, status: null, error: `request failed${code}` }
  } finally {
    clearTimeout(timer)
    signal?.removeEventListener('abort', onAbort)
  }
}
