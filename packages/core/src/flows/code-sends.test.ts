import { CODE_RESEND_COOLDOWN_MS, CODE_TTL_MS } from '@latchkey/protocol/constants'
import { describe, expect, it } from 'vitest'
import { createLatchkeyClient, type LatchkeyClient } from '../client.ts'
import { createMemoryStorage } from '../storage.ts'
import { APP_ID, authResponse, createFakeFetch, json } from '../test/fake-server.ts'
import { createEmailFlow } from './email.ts'
import { createSmsFlow } from './sms.ts'

// Tracker issue 16, item 3: a code outlives the flow that asked for it. A new
// flow for the same address (the modal closed and reopened, Back pressed) goes
// back to it while it can be entered, with when the next may be sent; a send
// the server refuses for the resend cooldown says when, from `retry_after`.

const T0 = Date.UTC(2030, 0, 1)
const exp = Math.floor(T0 / 1000) + 3600

/** A client on a fake server; `answer` decides each send's reply. */
function setup(
  answer: (n: number) => Response,
  options: { whatsapp?: boolean; submit?: () => Response } = {},
) {
  let sends = 0
  const fake = createFakeFetch((call) => {
    if (call.url.endsWith('/init')) return answer(sends++)
    if (call.url.includes('/apps/'))
      return json(200, { id: APP_ID, whatsapp_enabled: options.whatsapp ?? false })
    return options.submit?.() ?? json(200, authResponse({ exp }))
  })
  const client = createLatchkeyClient({
    appId: APP_ID,
    apiUrl: 'http://api.test',
    fetch: fake.fetch,
    storage: createMemoryStorage(),
    cookies: { get: () => null, set: () => {}, remove: () => {} },
    http: { sleep: async () => {} },
  })
  const inits = () => fake.calls.filter((c) => c.url.endsWith('/init')).length
  return { client, inits }
}

const sent = () => json(200, { success: true, channel: 'sms' })
const cooldown = (retryAfter?: number) =>
  json(429, {
    code: 'RESEND_COOLDOWN',
    message: 'Too many requests. Please wait before trying again.',
    ...(retryAfter === undefined ? {} : { retry_after: retryAfter }),
  })

/** A clock the flows read; `at` moves it. */
function clock() {
  let now = T0
  return {
    now: () => now,
    at(ms: number) {
      now = T0 + ms
    },
  }
}

const emailFlow = (client: LatchkeyClient, now: () => number) => createEmailFlow(client, { now })

describe('the email flow goes back to a live code', () => {
  it('a new flow for the same address: the code screen, no request, counting from the first send', async () => {
    const { client, inits } = setup(sent)
    const time = clock()
    await emailFlow(client, time.now).sendCode('alice@example.com')
    time.at(12_000)
    const again = emailFlow(client, time.now)
    await again.sendCode(' Alice@Example.com ')
    expect(again.getState()).toEqual({
      status: 'awaiting-code-input',
      email: 'alice@example.com',
      codeSentAt: T0,
      resendAt: T0 + CODE_RESEND_COOLDOWN_MS,
    })
    expect(inits()).toBe(1)
    // The code still works.
    await again.submitCode('123456')
    expect(again.getState().status).toBe('done')
  })

  it('not once the code expired, nor for another address, nor on another client', async () => {
    const { client, inits } = setup(sent)
    const time = clock()
    await emailFlow(client, time.now).sendCode('alice@example.com')
    await emailFlow(client, time.now).sendCode('bob@example.com')
    expect(inits()).toBe(2)
    time.at(CODE_TTL_MS - 1)
    await emailFlow(client, time.now).sendCode('alice@example.com')
    expect(inits()).toBe(2)
    time.at(CODE_TTL_MS)
    const late = emailFlow(client, time.now)
    await late.sendCode('alice@example.com')
    expect(inits()).toBe(3)
    expect(late.getState()).toMatchObject({ codeSentAt: T0 + CODE_TTL_MS })

    const other = setup(sent)
    await emailFlow(other.client, time.now).sendCode('alice@example.com')
    expect(other.inits()).toBe(1)
  })

  it('not once the code was used: the cooldown then reads as an error with its end', async () => {
    const { client, inits } = setup((n) => (n === 0 ? sent() : cooldown(20)))
    const time = clock()
    const first = emailFlow(client, time.now)
    await first.sendCode('alice@example.com')
    await first.submitCode('123456')
    time.at(10_000)
    const again = emailFlow(client, time.now)
    await again.sendCode('alice@example.com')
    expect(inits()).toBe(2)
    expect(again.getState()).toMatchObject({
      status: 'error',
      step: 'send',
      error: { code: 'RESEND_COOLDOWN', retryAfter: 20 },
      resendAt: T0 + 30_000,
    })
  })

  it('not once it was used up by wrong guesses (TOO_MANY_ATTEMPTS)', async () => {
    const { client, inits } = setup(sent, {
      submit: () => json(429, { code: 'TOO_MANY_ATTEMPTS', message: 'Too many attempts.' }),
    })
    const time = clock()
    const first = emailFlow(client, time.now)
    await first.sendCode('alice@example.com')
    await first.submitCode('000000')
    expect(first.getState()).toMatchObject({ status: 'error', step: 'submit' })
    await emailFlow(client, time.now).sendCode('alice@example.com')
    expect(inits()).toBe(2)
  })

  it('not once the server spent it on a refused login (account not found)', async () => {
    const { client, inits } = setup(sent, {
      submit: () => json(404, { code: 'USER_DOES_NOT_EXIST', message: 'No such user' }),
    })
    const time = clock()
    const first = createEmailFlow(client, {
      now: time.now,
      intent: { type: 'login', disableSignup: true },
    })
    await first.sendCode('alice@example.com')
    await first.submitCode('123456')
    await emailFlow(client, time.now).sendCode('alice@example.com')
    expect(inits()).toBe(2)
  })

  it('a wrong code does not end it', async () => {
    const { client, inits } = setup(sent, {
      submit: () => json(422, { code: 'INVALID_CODE', message: 'Invalid' }),
    })
    const time = clock()
    const first = emailFlow(client, time.now)
    await first.sendCode('alice@example.com')
    await first.submitCode('000000')
    const again = emailFlow(client, time.now)
    await again.sendCode('alice@example.com')
    expect(again.getState().status).toBe('awaiting-code-input')
    expect(inits()).toBe(1)
  })
})

describe('a send the server refuses for the resend cooldown', () => {
  it('a first send (a reload, another tab): the code screen, counting down from retry_after', async () => {
    const { client, inits } = setup(() => cooldown(12))
    const time = clock()
    const flow = emailFlow(client, time.now)
    await flow.sendCode('alice@example.com')
    expect(flow.getState()).toEqual({
      status: 'awaiting-code-input',
      email: 'alice@example.com',
      codeSentAt: T0 - (CODE_RESEND_COOLDOWN_MS - 12_000),
      resendAt: T0 + 12_000,
    })
    // Remembered: the next flow goes straight back to it.
    const again = emailFlow(client, time.now)
    await again.sendCode('alice@example.com')
    expect(inits()).toBe(1)
    await again.submitCode('123456')
    expect(again.getState().status).toBe('done')
  })

  it('without retry_after, the whole cooldown', async () => {
    const { client } = setup(() => cooldown())
    const time = clock()
    const flow = emailFlow(client, time.now)
    await flow.sendCode('alice@example.com')
    expect(flow.getState()).toMatchObject({ resendAt: T0 + CODE_RESEND_COOLDOWN_MS })
  })

  it('a resend: an error that keeps the code, with when the next may go', async () => {
    const { client } = setup((n) => (n === 0 ? sent() : cooldown(25)))
    const time = clock()
    const flow = emailFlow(client, time.now)
    await flow.sendCode('alice@example.com')
    time.at(5_000)
    await flow.resendCode()
    expect(flow.getState()).toMatchObject({
      status: 'error',
      step: 'send',
      error: { code: 'RESEND_COOLDOWN' },
      codeSentAt: T0,
      resendAt: T0 + 30_000,
    })
  })
})

describe('the SMS flow', () => {
  it('goes back to the live code of the same number, with its channel', async () => {
    const { client, inits } = setup(() => json(200, { success: true, channel: 'whatsapp' }))
    const time = clock()
    await createSmsFlow(client, { now: time.now }).sendCode('+1 415 555 2671')
    time.at(3_000)
    const again = createSmsFlow(client, { now: time.now })
    await again.sendCode('+14155552671')
    expect(again.getState()).toEqual({
      status: 'awaiting-code-input',
      phoneNumber: '+14155552671',
      codeSentAt: T0,
      resendAt: T0 + CODE_RESEND_COOLDOWN_MS,
      channel: 'whatsapp',
    })
    expect(inits()).toBe(1)
  })

  it("a first send refused for the cooldown: the code screen, on the app's channel", async () => {
    const { client } = setup(() => cooldown(9), { whatsapp: true })
    const time = clock()
    const flow = createSmsFlow(client, { now: time.now })
    await flow.sendCode('+14155552671')
    expect(flow.getState()).toMatchObject({
      status: 'awaiting-code-input',
      resendAt: T0 + 9_000,
      channel: 'whatsapp',
    })
  })
})
