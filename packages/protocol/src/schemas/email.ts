import { z } from 'zod'
import { authModeSchema, codeSchema, emailSchema } from './common.ts'

export const emailInitRequestSchema = z.object({
  email: emailSchema,
  /** Captcha token, when the app enables captcha. */
  token: z.string().max(4096).optional(),
  disableSignup: z.boolean().optional(),
})
export type EmailInitRequest = z.input<typeof emailInitRequestSchema>

export const emailAuthenticateRequestSchema = z.object({
  email: emailSchema,
  code: codeSchema,
  mode: authModeSchema.default('login-or-sign-up'),
})
export type EmailAuthenticateRequest = z.input<typeof emailAuthenticateRequestSchema>

export const emailLinkRequestSchema = z.object({ email: emailSchema, code: codeSchema })
export type EmailLinkRequest = z.input<typeof emailLinkRequestSchema>

export const emailUnlinkRequestSchema = z.object({ address: emailSchema })
export type EmailUnlinkRequest = z.input<typeof emailUnlinkRequestSchema>

export const emailUpdateRequestSchema = z.object({
  oldAddress: emailSchema,
  newAddress: emailSchema,
  code: codeSchema,
})
export type EmailUpdateRequest = z.input<typeof emailUpdateRequestSchema>
