import { newWebhookSecret, signWebhook } from './signature.ts'
import { WebhookVerificationError } from './verify.ts'

// One signed Standard Webhooks request, as the verify tests take it apart.
export const secret = newWebhookSecret()
export const now = Date.UTC(2030, 0, 1)
export const ts = Math.floor(now / 1000)
export const body = JSON.stringify({
  type: 'user.created',
  data: { user: { id: 'did:latchkey:x' } },
  timestamp: new Date(now).toISOString(),
})

/** The request's headers, signed for `body` at `ts`, with `over` replacing any of them. */
export const headers = (over: Record<string, string> = {}) => ({
  'webhook-id': 'msg_1',
  'webhook-timestamp': String(ts),
  'webhook-signature': signWebhook(secret, 'msg_1', ts, body),
  ...over,
})

/** The verification error's code, or 'ACCEPTED'. */
export const codeOf = (run: () => unknown) => {
  try {
    run()
  } catch (error) {
    if (error instanceof WebhookVerificationError) return error.code
    throw error
  }
  return 'ACCEPTED'
}
