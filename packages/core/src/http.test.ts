import { afterEach, describe, expect, it, vi } from 'vitest'
import { LatchkeyError } from './errors.ts'
import { createHttpClient } from './http.ts'
import { APP_ID, createFakeFetch, json } from './test/fake-server.ts'

afterEach(() => {
  vi.useRealTimers()
})

function client(statuses: number[], extra: { timeoutMs?: number } = {}) {
  const delays: number[] = []
  let n = 0
  const fake = createFakeFetch(() => {
    const status = statuses[Math.min(n++, statuses.length - 1)] ?? 200
    return status === 200
      ? json(200, { ok: true })
      : json(status, { code: 'INTERNAL_ERROR', message: 'boom' })
  })
  const http = createHttpClient({
    apiUrl: 'http://api.test/',
    appId: APP_ID,
    fetch: fake.fetch,
    getAccessToken: () => 'access-1',
    getAnalyticsId: () => 'caid-1',
    sleep: async (ms) => void delays.push(ms),
    ...extra,
  })
  return { http, calls: fake.calls, delays }
}

describe('http client retry rules (spec 01 §7)', () => {
  it.each([408, 409, 425, 500, 502, 503, 504])(
    'retries %i up to 3 times with 500 ms base backoff',
    async (status) => {
      const { http, calls, delays } = client([status, status, status, status])
      await expect(http.request('/x')).rejects.toBeInstanceOf(LatchkeyError)
      expect(calls).toHaveLength(4)
      expect(delays).toEqual([500, 1000, 2000])
    },
  )

  it('succeeds on a retry after transient failures', async () => {
    const { http, calls } = client([503, 502, 200])
    await expect(http.request('/x')).resolves.toEqual({ ok: true })
    expect(calls).toHaveLength(3)
  })

  it.each([400, 401, 403, 404, 422, 429])('does not retry %i', async (status) => {
    const { http, calls } = client([status, 200])
    await expect(http.request('/x')).rejects.toMatchObject({ status })
    expect(calls).toHaveLength(1)
  })

  it('does not retry when retry is off (analytics)', async () => {
    const { http, calls } = client([503, 200])
    await expect(http.request('/x', { retry: false })).rejects.toMatchObject({ status: 503 })
    expect(calls).toHaveLength(1)
  })

  it('retries network failures', async () => {
    let n = 0
    const fake = createFakeFetch(() => {
      if (n++ === 0) throw new TypeError('fetch failed')
      return json(200, { ok: true })
    })
    const http = createHttpClient({
      apiUrl: 'http://api.test',
      appId: APP_ID,
      fetch: fake.fetch,
      sleep: async () => {},
    })
    await expect(http.request('/x')).resolves.toEqual({ ok: true })
  })
})

describe('http client requests', () => {
  it('sends the app, analytics and client headers, the bearer token and JSON body', async () => {
    const { http, calls } = client([200])
    await http.request('/api/v1/thing', { body: { a: 1 } })
    const call = calls[0]
    expect(call?.url).toBe('http://api.test/api/v1/thing')
    expect(call?.method).toBe('POST')
    expect(call?.headers).toMatchObject({
      'latchkey-app-id': APP_ID,
      'latchkey-ca-id': 'caid-1',
      'latchkey-client': 'latchkey-react:0.1.0',
      authorization: 'Bearer access-1',
      'content-type': 'application/json',
    })
    expect(call?.body).toEqual({ a: 1 })
  })

  it('omits the bearer token when auth is off', async () => {
    const { http, calls } = client([200])
    await http.request('/x', { auth: false })
    expect(calls[0]?.headers.authorization).toBeUndefined()
  })

  it('turns error bodies into typed errors with the server code and message', async () => {
    const fake = createFakeFetch(() =>
      json(422, { code: 'INVALID_CODE', message: 'Invalid or expired verification code' }),
    )
    const http = createHttpClient({ apiUrl: 'http://api.test', appId: APP_ID, fetch: fake.fetch })
    const error = (await http.request('/x').catch((e: unknown) => e)) as LatchkeyError
    expect(error).toBeInstanceOf(LatchkeyError)
    expect(error).toMatchObject({
      code: 'INVALID_CODE',
      status: 422,
      shortMessage: 'Invalid or expired verification code',
    })
    expect(error.userMessage.title).toBe('Invalid or expired verification code')
  })

  it("shows the server's message where spec 01 §8 does: a 400/422 the catalogue defers, or an unknown code", async () => {
    const answers = [
      json(400, {
        code: 'CANNOT_LINK_MORE_OF_TYPE',
        message: 'Only one phone number can be linked to an account.',
      }),
      // A newer server's code this client does not know.
      json(422, { code: 'HANDLE_TAKEN', message: 'That username is taken. Pick another.' }),
      json(400, { code: 'HANDLE_TAKEN', message: '' }),
      // Unknown, but not a 400/422: the catch-all.
      json(403, { code: 'HANDLE_TAKEN', message: 'internal rule 7 refused' }),
      // A code the catalogue words itself: its wording, whatever the server said.
      json(400, { code: 'INVALID_PAYLOAD', message: 'The request payload is invalid' }),
    ]
    let n = 0
    const fake = createFakeFetch(() => answers[n++] as Response)
    const http = createHttpClient({ apiUrl: 'http://api.test', appId: APP_ID, fetch: fake.fetch })
    const errors: LatchkeyError[] = []
    for (let i = 0; i < answers.length; i++)
      errors.push((await http.request('/x').catch((e: unknown) => e)) as LatchkeyError)
    expect(errors.map((e) => [e.code, e.userMessage])).toEqual([
      ['CANNOT_LINK_MORE_OF_TYPE', { title: 'Only one phone number can be linked to an account.' }],
      ['INTERNAL_ERROR', { title: 'That username is taken. Pick another.' }],
      ['INTERNAL_ERROR', { title: 'Something went wrong', detail: 'Try again later' }],
      ['INTERNAL_ERROR', { title: 'Something went wrong', detail: 'Try again later' }],
      ['INVALID_PAYLOAD', { title: 'Something went wrong. Try again.', retryable: true }],
    ])
    expect(errors[1]?.userMessageLine).toBe('That username is taken. Pick another.')
  })

  it('maps unknown codes and 429s without a body', async () => {
    const fake = createFakeFetch(() => new Response('nope', { status: 429 }))
    const http = createHttpClient({ apiUrl: 'http://api.test', appId: APP_ID, fetch: fake.fetch })
    await expect(http.request('/x')).rejects.toMatchObject({
      code: 'TOO_MANY_REQUESTS',
      status: 429,
    })
  })

  it("reads a 429's wait: the body's retry_after, else the Retry-After header (issue 16, 3)", async () => {
    // An HTTP date is read against the clock: a fixed one.
    vi.useFakeTimers({ toFake: ['Date'], now: Date.UTC(2030, 0, 1) })
    const answers = [
      json(429, { code: 'RESEND_COOLDOWN', message: 'wait', retry_after: 17 }),
      new Response('{}', { status: 429, headers: { 'retry-after': '42' } }),
      new Response('{}', {
        status: 429,
        headers: { 'retry-after': new Date(Date.now() + 90_000).toUTCString() },
      }),
      new Response('{}', { status: 429, headers: { 'retry-after': 'soon' } }),
      json(429, { code: 'TOO_MANY_REQUESTS', message: 'wait' }),
    ]
    let n = 0
    const fake = createFakeFetch(() => answers[n++] as Response)
    const http = createHttpClient({ apiUrl: 'http://api.test', appId: APP_ID, fetch: fake.fetch })
    const waits: Array<number | undefined> = []
    for (let i = 0; i < answers.length; i++)
      waits.push(((await http.request('/x').catch((e: unknown) => e)) as LatchkeyError).retryAfter)
    expect(waits).toEqual([17, 42, 90, undefined, undefined])
  })

  it('times out after the configured limit (20 s by default) with a TIMEOUT error', async () => {
    const fetch = ((_: unknown, init?: RequestInit) =>
      new Promise((_resolve, reject) => {
        init?.signal?.addEventListener('abort', () =>
          reject(new DOMException('aborted', 'AbortError')),
        )
      })) as typeof globalThis.fetch
    const http = createHttpClient({
      apiUrl: 'http://api.test',
      appId: APP_ID,
      fetch,
      timeoutMs: 20,
      maxRetries: 0,
    })
    await expect(http.request('/x')).rejects.toMatchObject({ code: 'TIMEOUT' })
  })
})
