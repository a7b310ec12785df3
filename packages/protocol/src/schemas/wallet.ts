import { z } from 'zod'
import { recoveryKeyIdSchema } from './cloud-recovery.ts'

/** Chains an embedded wallet can be on. */
export const chainTypeSchema = z.enum(['ethereum', 'solana'])
export type ChainType = z.infer<typeof chainTypeSchema>

/**
 * How the device share can be rebuilt on a new device (ARCHITECTURE "Embedded
 * wallet keys"): `latchkey` = automatic (server-held recovery key),
 * `user-passcode` = argon2id key from the user's password, `google-drive` /
 * `icloud` = a random key in the user's cloud app-data folder.
 */
export const recoveryMethodSchema = z.enum(['latchkey', 'user-passcode', 'google-drive', 'icloud'])
export type RecoveryMethod = z.infer<typeof recoveryMethodSchema>

/** base64url without padding, bounded: shares and ciphertexts are small. */
export const base64urlSchema = z
  .string()
  .min(1)
  .max(4096)
  .regex(/^[A-Za-z0-9_-]+$/, 'Expected base64url')

export const ethereumAddressSchema = z.string().regex(/^0x[0-9a-fA-F]{40}$/, 'Expected an address')
export const solanaAddressSchema = z
  .string()
  .regex(/^[1-9A-HJ-NP-Za-km-z]{32,44}$/, 'Expected a base58 address')
export const walletAddressSchema = z.union([ethereumAddressSchema, solanaAddressSchema])

/** argon2id parameters stored beside a password-sealed recovery share (security bar 9). */
export const passwordKdfSchema = z.object({
  algorithm: z.literal('argon2id'),
  salt: base64urlSchema,
  /** Memory in KiB (≥ 19 MiB). */
  memory_kib: z.number().int().min(19_456).max(1_048_576),
  iterations: z.number().int().min(2).max(20),
  parallelism: z.number().int().min(1).max(8),
})
export type PasswordKdf = z.infer<typeof passwordKdfSchema>

/** The recovery share (device share sealed with AES-256-GCM) and what rebuilds its key. */
export const recoveryMaterialSchema = z.discriminatedUnion('method', [
  z.object({
    method: z.literal('latchkey'),
    ciphertext: base64urlSchema,
    /** The random recovery key: automatic recovery means the server keeps it. */
    recovery_key: base64urlSchema,
  }),
  z.object({
    method: z.literal('user-passcode'),
    ciphertext: base64urlSchema,
    kdf: passwordKdfSchema,
  }),
  z.object({
    method: z.literal('google-drive'),
    ciphertext: base64urlSchema,
    /** Names the Drive app-data file holding the recovery key (the key itself never reaches the server). */
    key_id: recoveryKeyIdSchema,
  }),
  z.object({
    method: z.literal('icloud'),
    ciphertext: base64urlSchema,
    /** Names the iCloud private-database record holding the recovery key. */
    key_id: recoveryKeyIdSchema,
  }),
])
export type RecoveryMaterial = z.infer<typeof recoveryMaterialSchema>

export const embeddedWalletInputSchema = z.object({
  chain_type: chainTypeSchema,
  address: walletAddressSchema,
  /** HD index; null for an imported key. */
  wallet_index: z.number().int().min(0).max(1_000).nullable(),
})

/**
 * Stores a new secret's shares and its first wallets in one step: the wallets
 * appear in the user's linked accounts only once both shares are stored.
 */
export const createEmbeddedWalletsRequestSchema = z.object({
  /** The secret's first address (index-0 Ethereum address, or the imported key's address). */
  entropy_id: walletAddressSchema,
  entropy_type: z.enum(['hd', 'private-key']),
  auth_share: base64urlSchema,
  recovery: recoveryMaterialSchema,
  wallets: z.array(embeddedWalletInputSchema).min(1).max(2),
})
export type CreateEmbeddedWalletsRequest = z.input<typeof createEmbeddedWalletsRequestSchema>

/** Adds another HD wallet (walletIndex ≥ 1, or a first wallet on the other chain) of a stored secret. */
export const addEmbeddedWalletRequestSchema = embeddedWalletInputSchema.extend({
  entropy_id: walletAddressSchema,
})
export type AddEmbeddedWalletRequest = z.input<typeof addEmbeddedWalletRequestSchema>

export const entropyRequestSchema = z.object({ entropy_id: walletAddressSchema })
export type EntropyRequest = z.input<typeof entropyRequestSchema>

/**
 * The auth share, released only to a valid session of the owner (security bar 41).
 * `warm_until` (Unix milliseconds): the end of this session's MFA window when
 * the user has an enabled factor and the window is open, else null; the
 * enclave may keep the rebuilt key until then (docs/mfa.md "Warm keys").
 */
export const authShareResponseSchema = z.object({
  entropy_id: z.string(),
  auth_share: base64urlSchema,
  warm_until: z.number().int().nullable(),
})
export type AuthShareResponse = z.infer<typeof authShareResponseSchema>

export const recoveryMaterialResponseSchema = z.object({
  entropy_id: z.string(),
  recovery: recoveryMaterialSchema,
})
export type RecoveryMaterialResponse = z.infer<typeof recoveryMaterialResponseSchema>

/** Replaces the recovery method (e.g. automatic → password): a new sealed device share. */
export const setRecoveryRequestSchema = z.object({
  entropy_id: walletAddressSchema,
  recovery: recoveryMaterialSchema,
})
export type SetRecoveryRequest = z.input<typeof setRecoveryRequestSchema>

/** What a key release handed out: the auth share (signing, export) or the recovery material. */
export const keyReleaseKindSchema = z.enum(['auth_share', 'recovery'])
export type KeyReleaseKind = z.infer<typeof keyReleaseKindSchema>

/** Largest page of key activity one request returns. */
export const KEY_ACTIVITY_MAX_LIMIT = 100

/** A page of the caller's key activity: `limit` rows (default 20, at most 100) after `cursor`. */
export const keyActivityQuerySchema = z.object({
  limit: z.coerce.number().int().min(1).max(KEY_ACTIVITY_MAX_LIMIT).default(20),
  /** `next_cursor` of the previous page. */
  cursor: z
    .string()
    .max(200)
    .regex(/^[A-Za-z0-9_-]+$/, 'Expected a cursor')
    .optional(),
})
export type KeyActivityQuery = z.input<typeof keyActivityQuerySchema>

/** One recorded release of key material to the user's session (docs/wallets.md "Key activity"). */
export const keyReleaseSchema = z.object({
  id: z.string(),
  kind: keyReleaseKindSchema,
  entropy_id: z.string(),
  /** Unix seconds. */
  created_at: z.number().int(),
  /** The session (access token `sid`) the material went to. */
  session_id: z.string(),
  /** The enclave key the release was bound to; null until enclave-bound proofs exist. */
  enclave_key_thumbprint: z.string().nullable(),
  ip: z.string().nullable(),
  user_agent: z.string().nullable(),
})
export type KeyReleaseWire = z.infer<typeof keyReleaseSchema>

/** The caller's key releases, newest first; `next_cursor` is null on the last page. */
export const keyActivityResponseSchema = z.object({
  data: z.array(keyReleaseSchema),
  next_cursor: z.string().nullable(),
})
export type KeyActivityResponse = z.infer<typeof keyActivityResponseSchema>
