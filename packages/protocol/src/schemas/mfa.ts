import { z } from 'zod'
import { codeSchema, mfaMethodSchema } from './common.ts'
import { userSchema } from './user.ts'

/** Unix seconds. */
const timestamp = z.number().int()

/**
 * What `POST /api/v1/mfa/totp/init` answers (spec 02 §3 "TOTP enrollment
 * info: secret, authUrl"): the base32 setup key and the `otpauth://totp/…`
 * URI the QR code shows (issuer = the app's name).
 */
export const totpEnrollmentInitResponseSchema = z.object({
  secret: z.string(),
  auth_url: z.string(),
})
export type TotpEnrollmentInitResponse = z.infer<typeof totpEnrollmentInitResponseSchema>

/** Confirms an authenticator-app setup with a code it shows. */
export const totpEnrollRequestSchema = z.object({ code: codeSchema })
export type TotpEnrollRequest = z.input<typeof totpEnrollRequestSchema>

/**
 * `POST /api/v1/mfa/verify`: one member per method (SMS and passkey add
 * theirs when they are built).
 */
export const mfaVerifyRequestSchema = z.discriminatedUnion('method', [
  z.object({ method: z.literal('totp'), code: codeSchema }),
])
export type MfaVerifyRequest = z.input<typeof mfaVerifyRequestSchema>

/** A verification of this session: key routes answer it until `expires_at` (Unix seconds). */
export const mfaVerificationSchema = z.object({
  method: mfaMethodSchema,
  verified_at: timestamp,
  expires_at: timestamp,
})
export type MfaVerification = z.infer<typeof mfaVerificationSchema>

/** A confirmed setup enables the method and counts as a verification of this session. */
export const mfaEnrollResponseSchema = z.object({
  user: userSchema,
  verification: mfaVerificationSchema,
})
export type MfaEnrollResponse = z.infer<typeof mfaEnrollResponseSchema>

export const mfaUnenrollRequestSchema = z.object({ method: mfaMethodSchema })
export type MfaUnenrollRequest = z.input<typeof mfaUnenrollRequestSchema>

/**
 * `GET /api/v1/mfa`: the user's enabled methods (oldest first) and until
 * when this session's verification lasts (null: none, or past).
 */
export const mfaStatusResponseSchema = z.object({
  factors: z.array(z.object({ method: mfaMethodSchema, enrolled_at: timestamp })),
  verified_until: timestamp.nullable(),
})
export type MfaStatusResponse = z.infer<typeof mfaStatusResponseSchema>
