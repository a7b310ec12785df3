import { describe, expect, it } from 'vitest'
import { newWebhookSecret, signWebhook } from './signature.ts'
import { body, codeOf, headers, now, secret, ts } from './verify.test-helper.ts'
import { verifyWebhook } from './verify.ts'

// Standard Webhooks signatures: a receiver accepts exactly what the secret
// signed. Any change to the body, the timestamp or the id fails.

describe('signature verifies; a tampered body, timestamp or id fails', () => {
  it('accepts the signed request and returns the event', () => {
    expect(verifyWebhook(secret, headers(), body, { now })).toMatchObject({ type: 'user.created' })
    // Node's req.headers, a fetch Headers, a Buffer body, mixed-case names.
    expect(verifyWebhook(secret, new Headers(headers()), Buffer.from(body), { now }).type).toBe(
      'user.created',
    )
    const upper = Object.fromEntries(
      Object.entries(headers()).map(([k, v]) => [k.toUpperCase(), v]),
    )
    expect(codeOf(() => verifyWebhook(secret, upper, body, { now }))).toBe('ACCEPTED')
  })

  it('refuses a changed body, timestamp or id', () => {
    expect(codeOf(() => verifyWebhook(secret, headers(), body.replace('x', 'y'), { now }))).toBe(
      'INVALID_SIGNATURE',
    )
    expect(codeOf(() => verifyWebhook(secret, headers(), `${body} `, { now }))).toBe(
      'INVALID_SIGNATURE',
    )
    const later = headers({ 'webhook-timestamp': String(ts + 1) })
    expect(codeOf(() => verifyWebhook(secret, later, body, { now }))).toBe('INVALID_SIGNATURE')
    const otherId = headers({ 'webhook-id': 'msg_2' })
    expect(codeOf(() => verifyWebhook(secret, otherId, body, { now }))).toBe('INVALID_SIGNATURE')
  })

  it('refuses another secret, a malformed signature, missing headers', () => {
    expect(codeOf(() => verifyWebhook(newWebhookSecret(), headers(), body, { now }))).toBe(
      'INVALID_SIGNATURE',
    )
    const sig = headers()['webhook-signature']
    for (const bad of ['', 'v1,', `v2,${sig.slice(3)}`, sig.slice(3), 'v1,AAAA'])
      expect(
        codeOf(() => verifyWebhook(secret, headers({ 'webhook-signature': bad }), body, { now })),
      ).toMatch(/INVALID_SIGNATURE|MISSING_HEADERS/)
    const { 'webhook-id': _, ...noId } = headers()
    expect(codeOf(() => verifyWebhook(secret, noId, body, { now }))).toBe('MISSING_HEADERS')
    expect(codeOf(() => verifyWebhook('not-a-secret', headers(), body, { now }))).toBe(
      'INVALID_SECRET',
    )
  })

  it('accepts any one of several space-separated signatures (a secret rotation)', () => {
    const old = newWebhookSecret()
    const both = `${signWebhook(secret, 'msg_1', ts, body)} ${signWebhook(old, 'msg_1', ts, body)}`
    for (const key of [secret, old])
      expect(
        codeOf(() => verifyWebhook(key, headers({ 'webhook-signature': both }), body, { now })),
      ).toBe('ACCEPTED')
    const wrongFirst = `v1,${Buffer.alloc(32).toString('base64')} ${signWebhook(secret, 'msg_1', ts, body)}`
    expect(
      codeOf(() =>
        verifyWebhook(secret, headers({ 'webhook-signature': wrongFirst }), body, { now }),
      ),
    ).toBe('ACCEPTED')
  })

  it('accepts the secret with or without its whsec_ prefix', () => {
    expect(codeOf(() => verifyWebhook(secret.slice(6), headers(), body, { now }))).toBe('ACCEPTED')
  })
})
