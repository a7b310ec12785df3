import { routes } from '@latchkey/protocol'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { getTestInstance, type TestInstance } from '../../test/instance.ts'
import { resolveSmsAllowedRegions } from './phone.ts'

// Spec 01 §8 "Region": numbers from outside the allowed regions get no code.
let t: TestInstance
beforeAll(async () => {
  t = await getTestInstance({
    appSettings: { login_methods: { sms: true } },
    smsAllowedRegions: ['US', '+44'],
  })
})
afterAll(() => t.close())

it('refuses a number from a region that is not allowed, and sends nothing', async () => {
  const res = await t.request(routes.smsInit, { body: { phoneNumber: '+33612345678' } })
  expect(res).toMatchObject({
    status: 403,
    body: {
      code: 'SMS_REGION_NOT_ALLOWED',
      message: 'SMS authentication from this region is not available',
    },
  })
  const outbox = await t.request(routes.devOutbox, { appId: null })
  expect(outbox.body.messages).toEqual([])
  expect(await t.countRows('otp_codes')).toBe(0)
  const auth = await t.request(routes.smsAuthenticate, {
    body: { phoneNumber: '+33612345678', code: '123456' },
  })
  expect(auth.body.code).toBe('SMS_REGION_NOT_ALLOWED')
})

it('accepts numbers by ISO country and by calling code', async () => {
  expect((await t.request(routes.smsInit, { body: { phoneNumber: '+14155552671' } })).status).toBe(
    200,
  )
  expect((await t.request(routes.smsInit, { body: { phoneNumber: '+447400123456' } })).status).toBe(
    200,
  )
})

it('checks the option at start', () => {
  expect(resolveSmsAllowedRegions(undefined)).toBeNull()
  expect(resolveSmsAllowedRegions(['us', '+44', '1'])).toEqual(['US', '44', '1'])
  expect(() => resolveSmsAllowedRegions(['Narnia'])).toThrow(/neither an ISO 3166/)
})
