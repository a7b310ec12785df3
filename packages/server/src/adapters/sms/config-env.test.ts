import { expect, it } from 'vitest'
import { loadConfigFromEnv } from '../../config.ts'

const SID = `AC${'0'.repeat(32)}`

it('reads Twilio and the allowed SMS regions from LATCHKEY_* variables', () => {
  const config = loadConfigFromEnv({
    LATCHKEY_TWILIO_ACCOUNT_SID: SID,
    LATCHKEY_TWILIO_AUTH_TOKEN: 'token',
    LATCHKEY_TWILIO_FROM: '+15005550006',
    LATCHKEY_TWILIO_MESSAGING_SERVICE_SID: '',
    LATCHKEY_TWILIO_WHATSAPP_FROM: '+14155238886',
    LATCHKEY_SMS_ALLOWED_REGIONS: 'US, +44',
  })
  expect(config.twilio).toEqual({
    accountSid: SID,
    authToken: 'token',
    from: '+15005550006',
    messagingServiceSid: undefined,
    whatsappFrom: '+14155238886',
    baseUrl: undefined,
  })
  expect(config.smsAllowedRegions).toEqual(['US', '+44'])
})

it('no Twilio without an account SID; an account SID needs its auth token', () => {
  expect(loadConfigFromEnv({}).twilio).toBeUndefined()
  expect(loadConfigFromEnv({}).smsAllowedRegions).toBeUndefined()
  expect(() => loadConfigFromEnv({ LATCHKEY_TWILIO_ACCOUNT_SID: SID })).toThrow(
    /LATCHKEY_TWILIO_AUTH_TOKEN/,
  )
})
