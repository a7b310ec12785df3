import { routes } from '@latchkey/protocol'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { getTestInstance, type TestInstance } from '../test/instance.ts'

// Security bar 48.
let t: TestInstance
beforeAll(async () => {
  t = await getTestInstance()
})
afterAll(() => t.close())

it('sets nosniff, frame-ancestors none, DENY and no-referrer on success, error and 404 answers', async () => {
  const answers = [
    await t.request(routes.appConfig(t.app.id)),
    await t.request(routes.emailInit, { rawBody: '{' }),
    await t.request('/nope'),
    await t.request('/dev/mailbox', { appId: null }),
  ]
  for (const res of answers) {
    expect(res.headers.get('x-content-type-options')).toBe('nosniff')
    expect(res.headers.get('content-security-policy')).toBe("frame-ancestors 'none'")
    expect(res.headers.get('x-frame-options')).toBe('DENY')
    expect(res.headers.get('referrer-policy')).toBe('no-referrer')
    expect(res.headers.get('strict-transport-security')).toBeNull()
  }
})

it('sends HSTS only when the public URL is https', async () => {
  const https = await getTestInstance({ publicUrl: 'https://auth.example.com' })
  try {
    const res = await https.request(routes.appConfig(https.app.id))
    expect(res.headers.get('strict-transport-security')).toMatch(/max-age=\d+/)
  } finally {
    await https.close()
  }
})

it('hides internals of unexpected errors behind 500 INTERNAL_ERROR', async () => {
  const errors: string[] = []
  const broken = await getTestInstance({
    rateLimiter: {
      hit: async () => {
        throw new Error('redis password is hunter2')
      },
      peek: async () => 0,
    },
    logger: { info() {}, warn() {}, error: (m) => errors.push(m) },
  })
  try {
    const res = await broken.request(routes.emailInit, { body: { email: 'a@example.com' } })
    expect(res).toMatchObject({ status: 500, body: { code: 'INTERNAL_ERROR' } })
    expect(JSON.stringify(res.body)).not.toContain('hunter2')
    expect(res.headers.get('x-content-type-options')).toBe('nosniff')
    expect(errors).toHaveLength(1)
  } finally {
    await broken.close()
  }
})
