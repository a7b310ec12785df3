import { createServer, type IncomingMessage, type Server } from 'node:http'
import { routes } from '@latchkey/protocol'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { getTestInstance } from '../../test/instance.ts'
import { TwilioSmsSender } from './twilio.ts'
import { SmsDeliveryError } from './types.ts'

// A local server that checks requests as Twilio's Messages API documents them
// (POST /2010-04-01/Accounts/{AccountSid}/Messages.json, HTTP Basic
// AccountSid:AuthToken, form-encoded To / From or MessagingServiceSid / Body,
// `whatsapp:` addresses) and answers like Twilio: 201 with the Message
// resource, or the error JSON {code, message, more_info, status}.
const ACCOUNT_SID = `AC${'0123456789abcdef'.repeat(2)}`
const AUTH_TOKEN = 'test-auth-token-9f8e7d'
const FROM = '+15005550006'
const WHATSAPP_FROM = '+14155238886'
const MESSAGING_SERVICE_SID = `MG${'fedcba9876543210'.repeat(2)}`

interface Received {
  method: string
  path: string
  contentType: string | undefined
  form: URLSearchParams
}
const received: Received[] = []
/** Twilio error to answer with for a `To` (tests set it). */
const failures = new Map<string, { status: number; code: number; message: string }>()

let server: Server
let baseUrl = ''

const readBody = (req: IncomingMessage) =>
  new Promise<string>((resolve) => {
    const chunks: Buffer[] = []
    req.on('data', (c: Buffer) => chunks.push(c))
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')))
  })

beforeAll(async () => {
  server = createServer(async (req, res) => {
    const json = (status: number, body: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json' })
      res.end(JSON.stringify(body))
    }
    const twilioError = (status: number, code: number, message: string) =>
      json(status, {
        code,
        message,
        more_info: `https://www.twilio.com/docs/errors/${code}`,
        status,
      })
    const expected = `Basic ${Buffer.from(`${ACCOUNT_SID}:${AUTH_TOKEN}`).toString('base64')}`
    if (req.headers.authorization !== expected)
      return twilioError(401, 20003, 'Authentication Error - invalid username')
    const path = req.url ?? ''
    if (req.method !== 'POST' || path !== `/2010-04-01/Accounts/${ACCOUNT_SID}/Messages.json`)
      return twilioError(404, 20404, 'The requested resource was not found')
    const text = await readBody(req)
    const form = new URLSearchParams(text)
    received.push({ method: req.method, path, contentType: req.headers['content-type'], form })
    const to = form.get('To')
    if (!to || !form.get('Body')) return twilioError(400, 21604, "A 'To' phone number is required.")
    if (!form.get('From') && !form.get('MessagingServiceSid'))
      return twilioError(400, 21603, "The 'From' number is required.")
    const failure = failures.get(to)
    if (failure) return twilioError(failure.status, failure.code, failure.message)
    json(201, {
      sid: `SM${'a'.repeat(32)}`,
      account_sid: ACCOUNT_SID,
      to,
      from: form.get('From'),
      messaging_service_sid: form.get('MessagingServiceSid'),
      body: form.get('Body'),
      status: 'queued',
      error_code: null,
      error_message: null,
      api_version: '2010-04-01',
      uri: `/2010-04-01/Accounts/${ACCOUNT_SID}/Messages/SM${'a'.repeat(32)}.json`,
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()))
  baseUrl = `http://127.0.0.1:${(server.address() as { port: number }).port}`
})
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())))
beforeEach(() => {
  received.length = 0
  failures.clear()
})

const sender = (options: Partial<ConstructorParameters<typeof TwilioSmsSender>[0]> = {}) =>
  new TwilioSmsSender({
    accountSid: ACCOUNT_SID,
    authToken: AUTH_TOKEN,
    from: FROM,
    whatsappFrom: WHATSAPP_FROM,
    baseUrl,
    ...options,
  })

describe('TwilioSmsSender', () => {
  it('posts an SMS as Twilio documents it: Basic auth, form To / From / Body', async () => {
    await sender().send({ to: '+14155552671', channel: 'sms', body: 'Your code is 123456' })
    expect(received).toHaveLength(1)
    const [request] = received
    expect(request?.contentType).toBe('application/x-www-form-urlencoded')
    expect(Object.fromEntries(request?.form ?? [])).toEqual({
      To: '+14155552671',
      From: FROM,
      Body: 'Your code is 123456',
    })
  })

  it('uses the Messaging Service when no From number is set', async () => {
    await sender({ from: undefined, messagingServiceSid: MESSAGING_SERVICE_SID }).send({
      to: '+14155552671',
      channel: 'sms',
      body: 'Your code is 123456',
    })
    expect(Object.fromEntries(received[0]?.form ?? [])).toEqual({
      To: '+14155552671',
      MessagingServiceSid: MESSAGING_SERVICE_SID,
      Body: 'Your code is 123456',
    })
  })

  it('sends WhatsApp with the whatsapp: prefix on To and From', async () => {
    await sender({ whatsappFrom: `whatsapp:${WHATSAPP_FROM}` }).send({
      to: '+447400123456',
      channel: 'whatsapp',
      body: 'Your code is 654321',
    })
    expect(Object.fromEntries(received[0]?.form ?? [])).toEqual({
      To: 'whatsapp:+447400123456',
      From: `whatsapp:${WHATSAPP_FROM}`,
      Body: 'Your code is 654321',
    })
  })

  it("turns Twilio's error JSON into an SmsDeliveryError (reason, code; no number, no body)", async () => {
    failures.set('+14155550100', {
      status: 400,
      code: 21211,
      message: "The 'To' number +14155550100 is not a valid phone number.",
    })
    const error = await sender()
      .send({ to: '+14155550100', channel: 'sms', body: 'Your code is 111111' })
      .catch((e: unknown) => e)
    expect(error).toBeInstanceOf(SmsDeliveryError)
    expect(error).toMatchObject({ reason: 'invalid-number', providerCode: 21211 })
    expect((error as Error).message).toBe(
      'Twilio answered 400 (error 21211, https://www.twilio.com/docs/errors/21211)',
    )
    failures.set('+14155550101', { status: 429, code: 20429, message: 'Too Many Requests' })
    await expect(
      sender().send({ to: '+14155550101', channel: 'sms', body: 'x' }),
    ).rejects.toMatchObject({ reason: 'rate-limited' })
    failures.set('+14155550102', {
      status: 400,
      code: 21408,
      message: 'Permission to send an SMS has not been enabled for the region',
    })
    await expect(
      sender().send({ to: '+14155550102', channel: 'sms', body: 'x' }),
    ).rejects.toMatchObject({ reason: 'region', providerCode: 21408 })
  })

  it('a wrong auth token is a delivery failure', async () => {
    await expect(
      sender({ authToken: 'wrong' }).send({ to: '+14155552671', channel: 'sms', body: 'x' }),
    ).rejects.toMatchObject({ reason: 'failed', providerCode: 20003 })
  })

  it('refuses a configuration without a sender or with a malformed account SID', () => {
    expect(
      () => new TwilioSmsSender({ accountSid: ACCOUNT_SID, authToken: AUTH_TOKEN, baseUrl }),
    ).toThrow(/needs a sender/)
    expect(
      () => new TwilioSmsSender({ accountSid: 'nope', authToken: AUTH_TOKEN, from: FROM }),
    ).toThrow(/account SID/)
  })
})

describe('login through Twilio', () => {
  it('sends the login code by SMS through Twilio (no dev outbox), then logs in with it', async () => {
    const t = await getTestInstance({
      appSettings: { login_methods: { sms: true } },
      twilio: { accountSid: ACCOUNT_SID, authToken: AUTH_TOKEN, from: FROM, baseUrl },
    })
    try {
      expect(t.server.services.sms.kind).toBe('twilio')
      expect((await t.request(routes.devOutbox, { appId: null })).status).toBe(404)
      const init = await t.request(routes.smsInit, { body: { phoneNumber: '+1 415 555 2671' } })
      expect(init.body).toEqual({ success: true, channel: 'sms' })
      const form = received.at(-1)?.form
      expect(form?.get('To')).toBe('+14155552671')
      const code = form?.get('Body')?.match(/login code is (\d{6})/)?.[1]
      expect(code).toMatch(/^\d{6}$/)
      const auth = await t.request(routes.smsAuthenticate, {
        body: { phoneNumber: '+14155552671', code },
      })
      expect(auth.status).toBe(200)
    } finally {
      await t.close()
    }
  })

  it('sends by WhatsApp through Twilio when the app enables it', async () => {
    const t = await getTestInstance({
      appSettings: { login_methods: { sms: true }, whatsapp_enabled: true },
      twilio: {
        accountSid: ACCOUNT_SID,
        authToken: AUTH_TOKEN,
        whatsappFrom: WHATSAPP_FROM,
        baseUrl,
      },
    })
    try {
      const init = await t.request(routes.smsInit, { body: { phoneNumber: '+447400123456' } })
      expect(init.body).toEqual({ success: true, channel: 'whatsapp' })
      expect(received.at(-1)?.form.get('To')).toBe('whatsapp:+447400123456')
      expect(received.at(-1)?.form.get('From')).toBe(`whatsapp:${WHATSAPP_FROM}`)
    } finally {
      await t.close()
    }
  })

  it("maps Twilio's refusals to the spec's messages", async () => {
    const t = await getTestInstance({
      appSettings: { login_methods: { sms: true } },
      twilio: { accountSid: ACCOUNT_SID, authToken: AUTH_TOKEN, from: FROM, baseUrl },
    })
    try {
      failures.set('+14155550100', { status: 400, code: 21211, message: 'invalid' })
      failures.set('+14155550101', { status: 400, code: 21408, message: 'region' })
      failures.set('+14155550102', { status: 500, code: 20500, message: 'Internal Server Error' })
      const invalid = await t.request(routes.smsInit, { body: { phoneNumber: '+14155550100' } })
      expect(invalid).toMatchObject({ status: 400, body: { code: 'INVALID_PHONE_NUMBER' } })
      const region = await t.request(routes.smsInit, { body: { phoneNumber: '+14155550101' } })
      expect(region).toMatchObject({
        status: 403,
        body: { message: 'SMS authentication from this region is not available' },
      })
      const down = await t.request(routes.smsInit, { body: { phoneNumber: '+14155550102' } })
      expect(down).toMatchObject({ status: 424, body: { code: 'SMS_DELIVERY_FAILED' } })
    } finally {
      await t.close()
    }
  })

  it('without Twilio and without the dev mailbox, nothing is sent and no outbox is served', async () => {
    const t = await getTestInstance({
      appSettings: { login_methods: { sms: true } },
      emailSender: { kind: 'test', send: async () => {} },
    })
    try {
      expect(t.server.services.sms.kind).toBe('unconfigured')
      expect((await t.request(routes.devOutbox, { appId: null })).status).toBe(404)
      const init = await t.request(routes.smsInit, { body: { phoneNumber: '+14155552671' } })
      expect(init).toMatchObject({ status: 424, body: { code: 'SMS_DELIVERY_FAILED' } })
    } finally {
      await t.close()
    }
  })
})
