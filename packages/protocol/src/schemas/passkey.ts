import { z } from 'zod'
import { authModeSchema } from './common.ts'

/** Unix seconds. */
const timestamp = z.number().int()
const base64url = z
  .string()
  .min(1)
  .max(2048)
  .regex(/^[A-Za-z0-9_-]+$/, 'Expected base64url')

/** A passkey linked to a user (spec 01 §3 "Passkey account"). */
export const passkeyAccountSchema = z.object({
  type: z.literal('passkey'),
  /** The WebAuthn credential id, base64url. */
  credential_id: base64url,
  /** From the authenticator's AAGUID where known (e.g. 'iCloud Keychain'), else null. */
  authenticator_name: z.string().nullable(),
  /** Parsed from the User-Agent of the registering browser, e.g. 'Chrome'. */
  created_with_browser: z.string().nullable(),
  /** e.g. 'macOS', 'Windows', 'Android'. */
  created_with_os: z.string().nullable(),
  created_with_device: z.string().nullable(),
  enrolled_in_mfa: z.boolean(),
  verified_at: timestamp,
  first_verified_at: timestamp,
  latest_verified_at: timestamp,
})
export type PasskeyAccountWire = z.infer<typeof passkeyAccountSchema>

/** `@simplewebauthn/browser`'s RegistrationResponseJSON, as the browser sends it. */
export const registrationResponseJsonSchema = z.looseObject({
  id: base64url,
  rawId: base64url,
  type: z.literal('public-key'),
  response: z.looseObject({
    clientDataJSON: base64url.max(8192),
    attestationObject: base64url.max(16384),
    transports: z.array(z.string().max(32)).max(8).optional(),
  }),
  authenticatorAttachment: z.string().max(32).optional(),
  clientExtensionResults: z.record(z.string(), z.unknown()).default({}),
})

/** `@simplewebauthn/browser`'s AuthenticationResponseJSON. */
export const authenticationResponseJsonSchema = z.looseObject({
  id: base64url,
  rawId: base64url,
  type: z.literal('public-key'),
  response: z.looseObject({
    clientDataJSON: base64url.max(8192),
    authenticatorData: base64url.max(8192),
    signature: base64url.max(2048),
    userHandle: base64url.optional(),
  }),
  authenticatorAttachment: z.string().max(32).optional(),
  clientExtensionResults: z.record(z.string(), z.unknown()).default({}),
})

const captcha = { token: z.string().max(4096).optional() }

/** Passkey: init register / authenticate / link (spec 01 §7: captcha token). */
export const passkeyInitRequestSchema = z.object({ ...captcha })
export type PasskeyInitRequest = z.input<typeof passkeyInitRequestSchema>

/**
 * Options for `navigator.credentials.create()` / `.get()` in
 * `@simplewebauthn/server`'s JSON form, plus the relying party the server
 * bound them to (the RP ID is the requesting origin's host).
 */
export const passkeyInitResponseSchema = z.object({
  relying_party: z.string(),
  options: z.looseObject({ challenge: z.string() }),
})
export type PasskeyInitResponse = z.infer<typeof passkeyInitResponseSchema>

/** Passkey: register (sign up), spec 01 §7. */
export const passkeyRegisterRequestSchema = z.object({
  relying_party: z.string().min(1).max(253),
  authenticator_response: registrationResponseJsonSchema,
  ...captcha,
})
export type PasskeyRegisterRequest = z.input<typeof passkeyRegisterRequestSchema>

/** Passkey: authenticate (log in), spec 01 §7. */
export const passkeyAuthenticateRequestSchema = z.object({
  relying_party: z.string().min(1).max(253),
  challenge: base64url,
  authenticator_response: authenticationResponseJsonSchema,
  mode: authModeSchema.default('login-or-sign-up'),
  ...captcha,
})
export type PasskeyAuthenticateRequest = z.input<typeof passkeyAuthenticateRequestSchema>

/** Passkey: link to the signed-in user (the register payload without mode). */
export const passkeyLinkRequestSchema = z.object({
  relying_party: z.string().min(1).max(253),
  authenticator_response: registrationResponseJsonSchema,
})
export type PasskeyLinkRequest = z.input<typeof passkeyLinkRequestSchema>

/** Passkey: unlink (spec 02 §7: credentialId, removeAsMfa). */
export const passkeyUnlinkRequestSchema = z.object({
  credential_id: base64url,
  remove_as_mfa: z.boolean().optional(),
})
export type PasskeyUnlinkRequest = z.input<typeof passkeyUnlinkRequestSchema>
