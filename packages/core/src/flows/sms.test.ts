import { describe, expect, it } from 'vitest'
import { createLatchkeyClient } from '../client.ts'
import { createMemoryStorage } from '../storage.ts'
import { APP_ID, authResponse, createFakeFetch, json, wireUser } from '../test/fake-server.ts'
import { toUser } from '../user.ts'
import { createSmsFlow, toPhoneE164, unlinkPhone } from './sms.ts'

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

const phoneAccount = (number: string) => ({
  type: 'phone' as const,
  number,
  verified_at: 1_700_000_000,
  first_verified_at: 1_700_000_000,
  latest_verified_at: 1_700_000_000,
})

const phoneAuthResponse = (number = '+14155552671') => {
  const response = authResponse({ exp })
  return { ...response, user: { ...response.user, linked_accounts: [phoneAccount(number)] } }
}

describe('toPhoneE164', () => {
  it('keeps digits only and puts + in front', () => {
    expect(toPhoneE164('+1 (415) 555-2671')).toBe('+14155552671')
    expect(toPhoneE164('447400123456')).toBe('+447400123456')
  })
  it.each(['', '12345', '+1234567890123456', '0044 7400 123456', 'phone'])('refuses %j', (v) => {
    expect(() => toPhoneE164(v)).toThrow(expect.objectContaining({ code: 'INVALID_PHONE_NUMBER' }))
  })
})

describe('sms flow state machine', () => {
  it('walks initial → sending-code → awaiting-code-input → submitting-code → done', async () => {
    const { client, calls } = setup((call) =>
      call.url.endsWith('/init')
        ? json(200, { success: true, channel: 'sms' })
        : json(200, { ...phoneAuthResponse(), is_new_user: true }),
    )
    const flow = createSmsFlow(client)
    const seen: string[] = []
    flow.subscribe(() => seen.push(flow.getState().status))
    await flow.sendCode('+1 415 555 2671')
    expect(flow.getState()).toMatchObject({
      status: 'awaiting-code-input',
      phoneNumber: '+14155552671',
      channel: 'sms',
    })
    await flow.submitCode('123 456')
    expect(seen).toEqual(['sending-code', 'awaiting-code-input', 'submitting-code', 'done'])
    expect(calls[0]?.url).toBe('http://api.test/api/v1/passwordless_sms/init')
    expect(calls[0]?.body).toEqual({ phoneNumber: '+14155552671' })
    expect(calls[1]?.url).toBe('http://api.test/api/v1/passwordless_sms/authenticate')
    expect(calls[1]?.body).toEqual({
      phoneNumber: '+14155552671',
      code: '123456',
      mode: 'login-or-sign-up',
    })
    const state = flow.getState()
    expect(state).toMatchObject({ status: 'done', isNewUser: true })
    if (state.status === 'done') expect(state.user.phone).toEqual({ number: '+14155552671' })
    expect(client.session.getState().status).toBe('authenticated')
  })

  it('reports the WhatsApp channel the server chose', async () => {
    const { client } = setup(() => json(200, { success: true, channel: 'whatsapp' }))
    const flow = createSmsFlow(client)
    await flow.sendCode('+447400123456')
    expect(flow.getState()).toMatchObject({ status: 'awaiting-code-input', channel: 'whatsapp' })
  })

  it('sends mode no-signup and disableSignup when sign-up is disabled', async () => {
    const { client, calls } = setup((call) =>
      call.url.endsWith('/init')
        ? json(200, { success: true, channel: 'sms' })
        : json(404, { code: 'USER_DOES_NOT_EXIST', message: 'x' }),
    )
    const flow = createSmsFlow(client, { intent: { type: 'login', disableSignup: true } })
    await flow.sendCode('+14155552671')
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
      if (call.url.endsWith('/init')) return json(200, { success: true, channel: 'sms' })
      return n++ === 0
        ? json(422, { code: 'INVALID_CODE', message: 'Invalid or expired verification code' })
        : json(200, phoneAuthResponse())
    })
    const flow = createSmsFlow(client)
    await flow.sendCode('+14155552671')
    await flow.submitCode('000000')
    expect(flow.getState()).toMatchObject({
      status: 'error',
      step: 'submit',
      error: { code: 'INVALID_CODE' },
    })
    await flow.submitCode('123456')
    expect(flow.getState().status).toBe('done')
  })

  it('an impossible number makes no request; server refusals land in the send step', async () => {
    const { client, calls } = setup(() =>
      json(403, {
        code: 'SMS_REGION_NOT_ALLOWED',
        message: 'SMS authentication from this region is not available',
      }),
    )
    const flow = createSmsFlow(client)
    await flow.sendCode('123')
    expect(flow.getState()).toMatchObject({
      status: 'error',
      step: 'send',
      error: { code: 'INVALID_PHONE_NUMBER' },
    })
    expect(calls).toHaveLength(0)
    await flow.sendCode('+33612345678')
    const state = flow.getState()
    expect(state).toMatchObject({ status: 'error', error: { code: 'SMS_REGION_NOT_ALLOWED' } })
    if (state.status === 'error')
      expect(state.error.userMessage.title).toBe(
        'SMS authentication from this region is not available',
      )
  })

  it('a failed resend keeps the code already received usable', async () => {
    let sends = 0
    const { client } = setup((call) => {
      if (call.url.endsWith('/init'))
        return sends++ === 0
          ? json(200, { success: true, channel: 'sms' })
          : json(429, { code: 'RESEND_COOLDOWN', message: 'wait' })
      return json(200, phoneAuthResponse())
    })
    const flow = createSmsFlow(client)
    await flow.sendCode('+14155552671')
    await flow.resendCode()
    expect(flow.getState()).toMatchObject({
      status: 'error',
      step: 'send',
      error: { code: 'RESEND_COOLDOWN' },
      codeSentAt: expect.any(Number),
    })
    await flow.submitCode('123456')
    expect(flow.getState().status).toBe('done')
  })

  it('remembers sms as the recent login method for this app', async () => {
    const { client } = setup((call) =>
      call.url.endsWith('/init')
        ? json(200, { success: true, channel: 'sms' })
        : json(200, phoneAuthResponse()),
    )
    const flow = createSmsFlow(client)
    await flow.sendCode('+14155552671')
    await flow.submitCode('123456')
    expect(client.storage.get(`latchkey:recent-login-method:${APP_ID}`)).toBe('sms')
  })

  it('reset returns to initial', async () => {
    const { client } = setup(() => json(200, { success: true, channel: 'sms' }))
    const flow = createSmsFlow(client)
    await flow.sendCode('+14155552671')
    flow.reset()
    expect(flow.getState()).toEqual({ status: 'initial' })
  })
})

describe('link and update intents', () => {
  async function loggedIn(handler: Parameters<typeof createFakeFetch>[0]) {
    const first = setup((call) =>
      call.url.endsWith('/passwordless/init')
        ? json(200, { success: true })
        : call.url.endsWith('/passwordless/authenticate')
          ? json(200, authResponse({ exp }))
          : handler(call),
    )
    first.client.session.applyAuthResponse(authResponse({ exp }))
    return first
  }

  it('link posts phoneNumber and code with the access token, and updates the user', async () => {
    const linked = {
      ...wireUser(),
      linked_accounts: [...wireUser().linked_accounts, phoneAccount('+14155552671')],
    }
    const { client, calls } = await loggedIn((call) =>
      call.url.endsWith('/passwordless_sms/init')
        ? json(200, { success: true, channel: 'sms' })
        : json(200, linked),
    )
    const flow = createSmsFlow(client, { intent: { type: 'link' } })
    await flow.sendCode('+14155552671')
    await flow.submitCode('123456')
    const link = calls.find((c) => c.url.endsWith('/passwordless_sms/link'))
    expect(link?.body).toEqual({ phoneNumber: '+14155552671', code: '123456' })
    expect(link?.headers.authorization).toMatch(/^Bearer /)
    expect(flow.getState()).toMatchObject({ status: 'done', isNewUser: false })
    expect(client.session.getState().user?.phone).toEqual({ number: '+14155552671' })
    expect(client.session.getState().user?.email).toEqual({ address: 'alice@example.com' })
  })

  it('update posts old_phone_number, new_phone_number and code', async () => {
    const updated = { ...wireUser(), linked_accounts: [phoneAccount('+14155550108')] }
    const { client, calls } = await loggedIn((call) =>
      call.url.endsWith('/passwordless_sms/init')
        ? json(200, { success: true, channel: 'sms' })
        : json(200, updated),
    )
    const flow = createSmsFlow(client, {
      intent: { type: 'update', oldPhoneNumber: '+1 415 555 0107' },
    })
    await flow.sendCode('+14155550108')
    await flow.submitCode('654321')
    const update = calls.find((c) => c.url.endsWith('/passwordless_sms/update'))
    expect(update?.body).toEqual({
      old_phone_number: '+14155550107',
      new_phone_number: '+14155550108',
      code: '654321',
    })
    expect(flow.getState()).toMatchObject({ status: 'done' })
  })

  it('unlinkPhone posts phoneNumber and stores the answer', async () => {
    const { client, calls } = await loggedIn(() => json(200, wireUser()))
    const user = await unlinkPhone(client, { phoneNumber: '+1 415 555 2671' })
    expect(calls.at(-1)?.body).toEqual({ phoneNumber: '+14155552671' })
    expect(user.phone).toBeUndefined()
  })
})

it('toUser maps a phone account to user.phone', () => {
  const user = toUser({ ...wireUser(), linked_accounts: [phoneAccount('+14155552671')] })
  expect(user.phone).toEqual({ number: '+14155552671' })
  expect(user.linkedAccounts[0]).toMatchObject({ type: 'phone', number: '+14155552671' })
  expect(user.email).toBeUndefined()
})
