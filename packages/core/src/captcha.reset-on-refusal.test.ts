import type { ErrorCode } from '@latchkey/protocol/errors'
import { routes } from '@latchkey/protocol/routes'
import { afterEach, beforeEach, expect, it, vi } from 'vitest'
import { createCaptchaController } from './captcha.ts'
import { createLatchkeyClient } from './client.ts'
import { sendEmailCode } from './flows/email.ts'
import { createMemoryStorage } from './storage.ts'
import { APP_ID, createFakeFetch, json } from './test/fake-server.ts'

// Spec 01 §8: an invalid captcha reads 'Please try again.' and the captcha
// resets. The client hears every answer refusing a token, whichever flow sent
// it, and tells the installed provider; the next attempt then carries a token
// solved after the refusal, not one solved ahead of it.
beforeEach(() => vi.useFakeTimers())
afterEach(() => vi.useRealTimers())

function setup(refusal: ErrorCode) {
  let refuse = true
  const fake = createFakeFetch((call) => {
    if (!call.url.endsWith(routes.emailInit)) return json(404, { code: 'NOT_FOUND', message: '' })
    if (!refuse) return json(200, { success: true })
    refuse = false
    return json(refusal === 'CAPTCHA_INVALID' ? 400 : 403, { code: refusal, message: 'no' })
  })
  const client = createLatchkeyClient({
    appId: APP_ID,
    apiUrl: 'http://localhost:8787',
    fetch: fake.fetch,
    storage: createMemoryStorage(),
    cookies: { get: () => null, set() {}, remove() {} },
    http: { sleep: async () => {} },
  })
  let solved = 0
  const captcha = createCaptchaController(async () => ({ solve: async () => `t${++solved}` }))
  const rejected: ErrorCode[] = []
  client.setCaptchaTokenProvider(() => captcha.token(), {
    onRejected: (code) => {
      rejected.push(code)
      captcha.expire()
    },
  })
  // As in the modal: solve ahead, and again after each token is taken.
  captcha.setPrefetch(true)
  captcha.execute()
  const tokens = () => fake.calls.map((c) => (c.body as { token?: string }).token)
  return { client, tokens, rejected }
}

it.each(['CAPTCHA_INVALID', 'CAPTCHA_FAILED'] as const)(
  '%s: the provider hears it and the next send carries a fresh token',
  async (refusal) => {
    const { client, tokens, rejected } = setup(refusal)
    await vi.advanceTimersByTimeAsync(0)
    const first = sendEmailCode(client, { email: 'a@example.com' }).catch((e) => e.code)
    await vi.advanceTimersByTimeAsync(0)
    expect(await first).toBe(refusal)
    expect(rejected).toEqual([refusal])
    await vi.advanceTimersByTimeAsync(0)
    await sendEmailCode(client, { email: 'a@example.com' })
    // t2 was solved ahead of the refusal and dropped with it.
    expect(tokens()).toEqual(['t1', 't3'])
  },
)

it('other failures leave the captcha alone', async () => {
  const fake = createFakeFetch(() => json(429, { code: 'TOO_MANY_REQUESTS', message: 'slow' }))
  const client = createLatchkeyClient({
    appId: APP_ID,
    apiUrl: 'http://localhost:8787',
    fetch: fake.fetch,
    storage: createMemoryStorage(),
    cookies: { get: () => null, set() {}, remove() {} },
  })
  const onRejected = vi.fn()
  client.setCaptchaTokenProvider(async () => 't', { onRejected })
  await expect(sendEmailCode(client, { email: 'a@example.com' })).rejects.toMatchObject({
    code: 'TOO_MANY_REQUESTS',
  })
  expect(onRejected).not.toHaveBeenCalled()
})
