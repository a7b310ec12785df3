import { z } from 'zod'
import { authModeSchema } from './common.ts'

/** A compact JWS from the app's own auth system (custom-JWT login). */
const customTokenSchema = z
  .string()
  .max(16_384)
  .regex(/^[A-Za-z0-9_-]*\.[A-Za-z0-9_-]*\.[A-Za-z0-9_-]*$/, 'Not a compact JWT')

export const customJwtAuthenticateRequestSchema = z.object({
  token: customTokenSchema,
  mode: authModeSchema.default('login-or-sign-up'),
})
export type CustomJwtAuthenticateRequest = z.input<typeof customJwtAuthenticateRequestSchema>

export const customJwtLinkRequestSchema = z.object({ token: customTokenSchema })
export type CustomJwtLinkRequest = z.input<typeof customJwtLinkRequestSchema>
