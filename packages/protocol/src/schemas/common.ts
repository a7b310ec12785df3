import { z } from 'zod'
import { CODE_LENGTH } from '../constants.ts'
import { ErrorCode } from '../errors.ts'
import { isValidAppId, isValidEmail } from '../validation.ts'

export const appIdSchema = z.string().refine(isValidAppId, 'App ID must be a 25-character string')

export const emailSchema = z
  .string()
  .trim()
  .max(254)
  .refine(isValidEmail, 'Please enter a valid email address.')

export const codeSchema = z
  .string()
  .trim()
  .regex(new RegExp(`^\\d{${CODE_LENGTH}}$`), 'Code should be numeric')

/** MFA methods (spec 02 §3 `mfaMethods`): an SMS code, an authenticator app, a passkey. */
export const mfaMethodSchema = z.enum(['sms', 'totp', 'passkey'])
export type MfaMethod = z.infer<typeof mfaMethodSchema>

/** `no-signup` restricts a login to existing users (spec 01 §5). */
export const authModeSchema = z.enum(['login-or-sign-up', 'no-signup'])
export type AuthMode = z.infer<typeof authModeSchema>

export const errorBodySchema = z.object({
  code: z.enum(Object.values(ErrorCode) as [ErrorCode, ...ErrorCode[]]),
  message: z.string(),
  details: z.unknown().optional(),
  /** On a 429 whose limit lifts at a known time: whole seconds until it does (as `Retry-After`). */
  retry_after: z.number().int().positive().optional(),
})

export const successSchema = z.object({ success: z.literal(true) })
export type SuccessResponse = z.infer<typeof successSchema>
