import { describe, expect, it } from 'vitest'
import { createLatchkeyClient } from '../client.ts'
import { createMemoryStorage } from '../storage.ts'
import { APP_ID, authResponse, createFakeFetch, json } from '../test/fake-server.ts'
import { createEmailFlow, validateEmailInput } from './email.ts'

describe('validateEmailInput (spec 01 §5)', () => {
  it.each(['alice@example.com', 'a.b-c@sub.example.co.uk', ' bob@example.com '])(
    'accepts %s',
    (email) => {
      expect(validateEmailInput(email)).toBeNull()
    },
  )
  it.each([
    '',
    'alice',
    'alice@',
    '@example.com',
    'alice@example',
    'a b@example.com',
    'alice@exa mple.com',
  ])('rejects %j', (email) => {
    expect(validateEmailInput(email)).toBe('INVALID_EMAIL')
  })
  it('refuses plus-addresses only when plus emails are disabled', () => {
    expect(validateEmailInput('alice+tag@example.com')).toBeNull()
    expect(validateEmailInput('alice+tag@example.com', { disablePlusEmails: true })).toBe(
      'PLUS_EMAIL_NOT_ALLOWED',
    )
  })
})

function setup(handler: Parameters<typeof createFakeFetch>[0]) {
  const fake = createFakeFetch(handler)
  const client = createLatchkeyClient({
    appId: APP_ID,
    apiUrl: 'http://api.test',
    fetch: fake.fetch,
    storage: createMemoryStorage(),
    cookies: { get: () => null, set: () => {}, remove: () => {} },
    http: { sleep: async () => {} },
  })
  return { client, calls: fake.calls }
}

const exp = Math.floor(Date.now() / 1000) + 3600

describe('email flow state machine', () => {
  it('walks initial → sending-code → awaiting-code-input → submitting-code → done', async () => {
    const { client, calls } = setup((call) =>
      call.url.endsWith('/init')
        ? json(200, { success: true })
        : json(200, { ...authResponse({ exp }), is_new_user: true }),
    )
    const flow = createEmailFlow(client)
    const seen: string[] = []
    flow.subscribe(() => seen.push(flow.getState().status))
    await flow.sendCode('Alice@Example.com')
    expect(flow.getState()).toMatchObject({
      status: 'awaiting-code-input',
      email: 'alice@example.com',
    })
    await flow.submitCode('123 456')
    expect(seen).toEqual(['sending-code', 'awaiting-code-input', 'submitting-code', 'done'])
    expect(flow.getState()).toMatchObject({ status: 'done', isNewUser: true })
    expect(calls[1]?.body).toEqual({
      email: 'alice@example.com',
      code: '123456',
      mode: 'login-or-sign-up',
    })
    expect(client.session.getState().status).toBe('authenticated')
  })

  it('sends mode no-signup and disableSignup when sign-up is disabled', async () => {
    const { client, calls } = setup((call) =>
      call.url.endsWith('/init')
        ? json(200, { success: true })
        : json(404, { code: 'USER_DOES_NOT_EXIST', message: 'x' }),
    )
    const flow = createEmailFlow(client, { intent: { type: 'login', disableSignup: true } })
    await flow.sendCode('alice@example.com')
    await flow.submitCode('123456')
    expect(calls[0]?.body).toMatchObject({ disableSignup: true })
    expect(calls[1]?.body).toMatchObject({ mode: 'no-signup' })
    expect(flow.getState()).toMatchObject({
      status: 'error',
      step: 'submit',
      error: { code: 'USER_DOES_NOT_EXIST' },
    })
  })

  it('a wrong code lands in error and the user can submit again', async () => {
    let n = 0
    const { client } = setup((call) => {
      if (call.url.endsWith('/init')) return json(200, { success: true })
      return n++ === 0
        ? json(422, { code: 'INVALID_CODE', message: 'Invalid or expired verification code' })
        : json(200, authResponse({ exp }))
    })
    const flow = createEmailFlow(client)
    await flow.sendCode('alice@example.com')
    await flow.submitCode('000000')
    expect(flow.getState()).toMatchObject({
      status: 'error',
      step: 'submit',
      error: { code: 'INVALID_CODE' },
    })
    await flow.submitCode('123456')
    expect(flow.getState().status).toBe('done')
  })

  it('validates before sending: an invalid or plus address makes no request', async () => {
    const { client, calls } = setup(() => json(200, { success: true }))
    const flow = createEmailFlow(client, { disablePlusEmails: true })
    await flow.sendCode('alice+x@example.com')
    expect(flow.getState()).toMatchObject({
      status: 'error',
      step: 'send',
      error: { code: 'PLUS_EMAIL_NOT_ALLOWED' },
    })
    await flow.sendCode('not-an-email')
    expect(flow.getState()).toMatchObject({ error: { code: 'INVALID_EMAIL' } })
    expect(calls).toHaveLength(0)
  })

  it('reports the resend cooldown as a send error', async () => {
    let n = 0
    const { client } = setup(() =>
      n++ === 0
        ? json(200, { success: true })
        : json(429, { code: 'RESEND_COOLDOWN', message: 'wait' }),
    )
    const flow = createEmailFlow(client)
    await flow.sendCode('alice@example.com')
    await flow.resendCode()
    expect(flow.getState()).toMatchObject({
      status: 'error',
      step: 'send',
      error: { code: 'RESEND_COOLDOWN' },
    })
  })

  it('remembers email as the recent login method for this app', async () => {
    const { client } = setup((call) =>
      call.url.endsWith('/init') ? json(200, { success: true }) : json(200, authResponse({ exp })),
    )
    const flow = createEmailFlow(client)
    await flow.sendCode('alice@example.com')
    await flow.submitCode('123456')
    expect(client.storage.get(`latchkey:recent-login-method:${APP_ID}`)).toBe('email')
  })
})

describe('a failed resend', () => {
  it('keeps the code already received usable', async () => {
    let sends = 0
    const { client } = setup((call) => {
      if (call.url.endsWith('/init'))
        return sends++ === 0
          ? json(200, { success: true })
          : json(429, { code: 'RESEND_COOLDOWN', message: 'wait' })
      return json(200, authResponse({ exp }))
    })
    const flow = createEmailFlow(client)
    await flow.sendCode('alice@example.com')
    await flow.resendCode()
    expect(flow.getState()).toMatchObject({
      status: 'error',
      step: 'send',
      codeSentAt: expect.any(Number),
    })
    await flow.submitCode('123456')
    expect(flow.getState().status).toBe('done')
  })

  it('a failed first send has no code to submit', async () => {
    const { client, calls } = setup(() =>
      json(429, { code: 'TOO_MANY_REQUESTS', message: 'slow down' }),
    )
    const flow = createEmailFlow(client)
    await flow.sendCode('alice@example.com')
    await flow.submitCode('123456')
    expect(flow.getState()).toMatchObject({ status: 'error', step: 'send' })
    expect(calls).toHaveLength(1)
  })
})
