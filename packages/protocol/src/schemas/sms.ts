import { z } from 'zod'
import { MAX_PHONE_DIGITS } from '../phone.ts'
import { authModeSchema, codeSchema } from './common.ts'

/**
 * A phone number as sent: E.164 ('+14155550132'), or digits with the country
 * calling code and any separators ('1 (415) 555-0132'). The server strips
 * non-digits and validates the number per country (INVALID_PHONE_NUMBER).
 */
export const phoneNumberSchema = z
  .string()
  .trim()
  .min(1, 'Please enter a valid phone number.')
  .max(32, 'Please enter a valid phone number.')
  .regex(/^\+?[\d\s().-]+$/, 'Please enter a valid phone number.')
  .refine(
    (value) => value.replace(/\D+/g, '').length <= MAX_PHONE_DIGITS,
    'Please enter a valid phone number.',
  )

/** SMS: send code (spec 01 §7: phoneNumber, token, disableSignup). */
export const smsInitRequestSchema = z.object({
  phoneNumber: phoneNumberSchema,
  /** Captcha token, when the app enables captcha. */
  token: z.string().max(4096).optional(),
  disableSignup: z.boolean().optional(),
})
export type SmsInitRequest = z.input<typeof smsInitRequestSchema>

/** SMS: authenticate (phoneNumber, code, mode). */
export const smsAuthenticateRequestSchema = z.object({
  phoneNumber: phoneNumberSchema,
  code: codeSchema,
  mode: authModeSchema.default('login-or-sign-up'),
})
export type SmsAuthenticateRequest = z.input<typeof smsAuthenticateRequestSchema>

/** SMS: link — the authenticate payload without mode. */
export const smsLinkRequestSchema = z.object({ phoneNumber: phoneNumberSchema, code: codeSchema })
export type SmsLinkRequest = z.input<typeof smsLinkRequestSchema>

/** Unlink phone (phoneNumber). */
export const smsUnlinkRequestSchema = z.object({ phoneNumber: phoneNumberSchema })
export type SmsUnlinkRequest = z.input<typeof smsUnlinkRequestSchema>

/** SMS: update (old_phone_number, new_phone_number, code); the code went to the new number. */
export const smsUpdateRequestSchema = z.object({
  old_phone_number: phoneNumberSchema,
  new_phone_number: phoneNumberSchema,
  code: codeSchema,
})
export type SmsUpdateRequest = z.input<typeof smsUpdateRequestSchema>

/** Answer of the SMS send-code call: which channel carried the code. */
export const smsInitResponseSchema = z.object({
  success: z.literal(true),
  channel: z.enum(['sms', 'whatsapp']),
})
export type SmsInitResponse = z.infer<typeof smsInitResponseSchema>
