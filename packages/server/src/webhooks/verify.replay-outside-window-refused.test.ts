import { describe, expect, it } from 'vitest'
import { body, codeOf, headers, now, secret, ts } from './verify.test-helper.ts'
import { verifyWebhook } from './verify.ts'

// Standard Webhooks: a captured request replayed once the tolerance window
// (default 5 minutes, each way) has passed is refused, signature or not.

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
