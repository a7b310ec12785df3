import { z } from 'zod'
import { codeSchema, mfaMethodSchema } from './common.ts'
import { authenticationResponseJsonSchema, passkeyInitResponseSchema } from './passkey.ts'
import { phoneNumberSchema } from './sms.ts'
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
 * `POST /api/v1/mfa/sms/init` (spec 02 §7 "SMS init"): sends a six-digit
 * code by SMS, either to a new phone being enrolled or, with `verify`, to
 * the phone the user enrolled. Answers `{ success: true }`.
 */
export const smsMfaInitRequestSchema = z.discriminatedUnion('action', [
  z.object({ action: z.literal('enroll'), phone_number: phoneNumberSchema }),
  z.object({ action: z.literal('verify') }),
])
export type SmsMfaInitRequest = z.input<typeof smsMfaInitRequestSchema>

/** Confirms an SMS setup with the code sent to `phone_number`. */
export const smsMfaEnrollRequestSchema = z.object({
  phone_number: phoneNumberSchema,
  code: codeSchema,
})
export type SmsMfaEnrollRequest = z.input<typeof smsMfaEnrollRequestSchema>

/**
 * `POST /api/v1/mfa/passkey/init` (spec 02 §7 "passkey init (response
 * options)"): assertion options limited to the user's MFA passkeys, for
 * `navigator.credentials.get()` in the host page.
 */
export const passkeyMfaInitResponseSchema = passkeyInitResponseSchema
export type PasskeyMfaInitResponse = z.infer<typeof passkeyMfaInitResponseSchema>

/** Enables linked passkeys as MFA (spec 02 "Enable passkeys": `credentialIds`). */
export const passkeyMfaEnrollRequestSchema = z.object({
  credential_ids: z.array(z.string().min(1).max(1024)).min(1).max(10),
})
export type PasskeyMfaEnrollRequest = z.input<typeof passkeyMfaEnrollRequestSchema>

/** `POST /api/v1/mfa/verify`: one member per method. */
export const mfaVerifyRequestSchema = z.discriminatedUnion('method', [
  z.object({ method: z.literal('totp'), code: codeSchema }),
  z.object({ method: z.literal('sms'), code: codeSchema }),
  z.object({
    method: z.literal('passkey'),
    relying_party: z.string().min(1).max(253),
    authenticator_response: authenticationResponseJsonSchema,
  }),
])
export type MfaVerifyRequest = z.input<typeof mfaVerifyRequestSchema>

/** A verification of this session: key routes answer it until `expires_at` (Unix seconds). */
export const mfaVerificationSchema = z.object({
  method: mfaMethodSchema,
  verified_at: timestamp,
  expires_at: timestamp,
})
export type MfaVerification = z.infer<typeof mfaVerificationSchema>

/**
 * A confirmed setup enables the method. A code setup (TOTP, SMS) proved the
 * factor on this device, so it counts as a verification of this session; a
 * passkey setup (which proves nothing by itself) answers `verification: null`.
 */
export const mfaEnrollResponseSchema = z.object({
  user: userSchema,
  verification: mfaVerificationSchema.nullable(),
})
export type MfaEnrollResponse = z.infer<typeof mfaEnrollResponseSchema>

/**
 * Removes a method. For `passkey`, `credential_id` removes one passkey from
 * MFA (without it: all of them), and `remove_for_login` also unlinks it as
 * a login method (`passkeys.shouldUnlinkOnUnenrollMfa`).
 */
export const mfaUnenrollRequestSchema = z.discriminatedUnion('method', [
  z.object({ method: z.literal('totp') }),
  z.object({ method: z.literal('sms') }),
  z.object({
    method: z.literal('passkey'),
    credential_id: z.string().min(1).max(1024).optional(),
    remove_for_login: z.boolean().optional(),
  }),
])
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
