import { z } from 'zod'

/**
 * Farcaster signer (spec 03 §2, §3, §4, §7): an ed25519 key the enclave made
 * and holds, added to the user's Farcaster account through a Farcaster
 * "signed key request" that the app's requesting FID signs.
 */

/** A 32-byte ed25519 public key, 0x-prefixed lowercase hex (as Farcaster's API takes it). */
export const ed25519PublicKeySchema = z
  .string()
  .regex(/^0x[0-9a-fA-F]{64}$/, 'an ed25519 public key: 0x and 64 hex digits')
  .transform((key) => key.toLowerCase() as `0x${string}`)

export const farcasterSignerStatusSchema = z.enum(['pending_approval', 'approved', 'revoked'])
export type FarcasterSignerStatus = z.infer<typeof farcasterSignerStatusSchema>

/** `POST /api/v1/farcaster/signer/init` (an enclave route) and `…/status`: the key. */
export const farcasterSignerRequestSchema = z.strictObject({
  ed25519_public_key: ed25519PublicKeySchema,
})
export type FarcasterSignerRequest = z.input<typeof farcasterSignerRequestSchema>

/** The signer's state (spec 03 §3 "Farcaster signer"). */
export const farcasterSignerResponseSchema = z.object({
  public_key: z.string(),
  status: farcasterSignerStatusSchema,
  /** The Farcaster app's approval deep link (QR code / "Open Farcaster app"); null once approved. */
  signer_approval_url: z.string().nullable(),
  /** The fid that approved (the user's), once approved. */
  fid: z.number().int().positive().nullable(),
})
export type FarcasterSignerResponse = z.infer<typeof farcasterSignerResponseSchema>
