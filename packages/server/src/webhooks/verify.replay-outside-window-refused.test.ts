import { describe, expect, it } from 'vitest'
import { newWebhookSecret, signWebhook } from './signature.ts'
import { verifyWebhook, WebhookVerificationError } from './verify.ts'

// Standard Webhooks: a captured request replayed once the tolerance window
// (default 5 minutes, each way) has passed is refused, signature or not.
const secret = newWebhookSecret()
const now = Date.UTC(2030, 0, 1)
const ts = Math.floor(now / 1000)
const body = JSON.stringify({
  type: 'user.created',
  data: { user: { id: 'did:latchkey:x' } },
  timestamp: new Date(now).toISOString(),
})
const headers = (over: Record<string, string> = {}) => ({
  'webhook-id': 'msg_1',
  'webhook-timestamp': String(ts),
  'webhook-signature': signWebhook(secret, 'msg_1', ts, body),
  ...over,
})
const codeOf = (run: () => unknown) => {
  try {
    run()
  } catch (error) {
    if (error instanceof WebhookVerificationError) return error.code
    throw error
  }
  return 'ACCEPTED'
}

describe('replay outside the window refused', () => {
  it('refuses a timestamp more than toleranceSeconds old or ahead, both ways', () => {
    expect(codeOf(() => verifyWebhook(secret, headers(), body, { now: now + 300_000 }))).toBe(
      'ACCEPTED',
    )
    expect(codeOf(() => verifyWebhook(secret, headers(), body, { now: now + 301_000 }))).toBe(
      'TIMESTAMP_TOO_OLD',
    )
    expect(codeOf(() => verifyWebhook(secret, headers(), body, { now: now - 301_000 }))).toBe(
      'TIMESTAMP_TOO_NEW',
    )
    const tight = { now: now + 11_000, toleranceSeconds: 10 }
    expect(codeOf(() => verifyWebhook(secret, headers(), body, tight))).toBe('TIMESTAMP_TOO_OLD')
    expect(codeOf(() => verifyWebhook(secret, headers(), body, { now: new Date(now) }))).toBe(
      'ACCEPTED',
    )
  })

  it('refuses a timestamp that is not a number of seconds', () => {
    for (const bad of ['', 'abc', '1e9', '-5', `${ts}.5`])
      expect(
        codeOf(() => verifyWebhook(secret, headers({ 'webhook-timestamp': bad }), body, { now })),
      ).toMatch(/INVALID_TIMESTAMP|MISSING_HEADERS/)
  })
})
