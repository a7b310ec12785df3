import { z } from 'zod'
import { authModeSchema } from './common.ts'

/** Unix seconds. */
const timestamp = z.number().int()

export { FARCASTER_CHANNEL_TOKEN_HEADER } from '../constants.ts'

export const farcasterInitRequestSchema = z.object({
  /** Captcha token, when the app enables captcha. */
  token: z.string().max(4096).optional(),
})
export type FarcasterInitRequest = z.input<typeof farcasterInitRequestSchema>

/** A relay channel: the QR / deep link for the Farcaster app and the token to poll with. */
export const farcasterInitResponseSchema = z.object({
  channel_token: z.string(),
  connect_uri: z.string(),
  /** Unix ms; the modal gives up at FARCASTER_TIMEOUT_MS either way. */
  expires_at: z.number().int(),
})
export type FarcasterInitResponse = z.infer<typeof farcasterInitResponseSchema>

/** The channel's state: `completed` carries the signed Sign In With Farcaster message. */
export const farcasterStatusResponseSchema = z.discriminatedUnion('state', [
  z.object({ state: z.literal('pending') }),
  z.object({
    state: z.literal('completed'),
    message: z.string(),
    signature: z.string(),
    fid: z.number().int().positive(),
    username: z.string().nullable(),
    display_name: z.string().nullable(),
    bio: z.string().nullable(),
    pfp_url: z.string().nullable(),
  }),
])
export type FarcasterStatusResponse = z.infer<typeof farcasterStatusResponseSchema>

const farcasterPayload = {
  channel_token: z.string().min(1).max(512),
  message: z.string().min(1).max(4096),
  signature: z
    .string()
    .regex(/^0x[0-9a-fA-F]+$/, 'Expected a hex signature')
    .max(40_000),
  fid: z.number().int().positive().max(Number.MAX_SAFE_INTEGER),
  token: z.string().max(4096).optional(),
}

export const farcasterAuthenticateRequestSchema = z.object({
  ...farcasterPayload,
  mode: authModeSchema.default('login-or-sign-up'),
})
export type FarcasterAuthenticateRequest = z.input<typeof farcasterAuthenticateRequestSchema>
export const farcasterLinkRequestSchema = z.object(farcasterPayload)
export type FarcasterLinkRequest = z.input<typeof farcasterLinkRequestSchema>
export const farcasterUnlinkRequestSchema = z.object({
  fid: z.number().int().positive().max(Number.MAX_SAFE_INTEGER),
})
export type FarcasterUnlinkRequest = z.input<typeof farcasterUnlinkRequestSchema>

/** A Farcaster account (spec 01 §3: fid, signer public key). */
export const farcasterAccountSchema = z.object({
  type: z.literal('farcaster'),
  fid: z.number().int(),
  /** The fid's custody address that signed the sign-in message. */
  owner_address: z.string(),
  username: z.string().nullable(),
  display_name: z.string().nullable(),
  bio: z.string().nullable(),
  profile_picture_url: z.string().nullable(),
  /** Set once a Farcaster signer is added (not part of sign-in). */
  signer_public_key: z.string().nullable(),
  verified_at: timestamp,
  first_verified_at: timestamp,
  latest_verified_at: timestamp,
})
export type FarcasterAccountWire = z.infer<typeof farcasterAccountSchema>
