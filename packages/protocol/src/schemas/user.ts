import { z } from 'zod'
import { mfaMethodSchema } from './common.ts'
import { crossAppAccountSchema } from './cross-app-account.ts'
import { externalWalletAccountSchema } from './external-wallet.ts'
import { farcasterAccountSchema } from './farcaster.ts'
import { oauthAccountSchema } from './oauth-account.ts'
import { passkeyAccountSchema } from './passkey.ts'
import { smartWalletAccountSchema } from './smart-wallet.ts'
import { chainTypeSchema, recoveryMethodSchema } from './wallet.ts'

/** Unix seconds. */
const timestamp = z.number().int()

export const emailAccountSchema = z.object({
  type: z.literal('email'),
  address: z.string(),
  verified_at: timestamp,
  first_verified_at: timestamp,
  latest_verified_at: timestamp,
})

/** A phone number (SMS / WhatsApp login), E.164. */
export const phoneAccountSchema = z.object({
  type: z.literal('phone'),
  number: z.string(),
  verified_at: timestamp,
  first_verified_at: timestamp,
  latest_verified_at: timestamp,
})

/** An embedded wallet (spec 01 §3 "Wallet account fields"). */
export const embeddedWalletAccountSchema = z.object({
  type: z.literal('wallet'),
  address: z.string(),
  chain_type: chainTypeSchema,
  wallet_index: z.number().int().nullable(),
  wallet_client_type: z.literal('latchkey'),
  connector_type: z.literal('embedded'),
  imported: z.boolean(),
  delegated: z.boolean(),
  recovery_method: recoveryMethodSchema,
  entropy_id: z.string(),
  verified_at: timestamp,
  first_verified_at: timestamp,
  latest_verified_at: timestamp,
})

/** A Telegram account (Login Widget or Mini App); ids as decimal strings. */
export const telegramAccountSchema = z.object({
  type: z.literal('telegram'),
  telegram_user_id: z.string(),
  first_name: z.string().nullable(),
  last_name: z.string().nullable(),
  username: z.string().nullable(),
  photo_url: z.string().nullable(),
  verified_at: timestamp,
  first_verified_at: timestamp,
  latest_verified_at: timestamp,
})

/** An account of the app's own auth system (custom-JWT login); the JWT's subject. */
export const customAccountSchema = z.object({
  type: z.literal('custom'),
  custom_user_id: z.string(),
  verified_at: timestamp,
  first_verified_at: timestamp,
  latest_verified_at: timestamp,
})

/** A guest account; nothing about the credential travels. */
export const guestAccountSchema = z.object({
  type: z.literal('guest'),
  verified_at: timestamp,
  first_verified_at: timestamp,
  latest_verified_at: timestamp,
})

/**
 * A linked account as it travels on the wire (snake_case), a union on `type`
 * (a plain union: embedded and external wallets share the type `wallet` and
 * differ by `connector_type`); later login methods add their members here.
 */
export const linkedAccountSchema = z.union([
  emailAccountSchema,
  embeddedWalletAccountSchema,
  externalWalletAccountSchema,
  farcasterAccountSchema,
  phoneAccountSchema,
  telegramAccountSchema,
  customAccountSchema,
  guestAccountSchema,
  oauthAccountSchema,
  passkeyAccountSchema,
  crossAppAccountSchema,
  smartWalletAccountSchema,
])
export type LinkedAccountWire = z.infer<typeof linkedAccountSchema>

export const userSchema = z.object({
  id: z.string(),
  created_at: timestamp,
  linked_accounts: z.array(linkedAccountSchema),
  mfa_methods: z.array(mfaMethodSchema),
  has_accepted_terms: z.boolean(),
  is_guest: z.boolean(),
})
export type UserWire = z.infer<typeof userSchema>

export const usersMeResponseSchema = z.object({
  user: userSchema,
  identity_token: z.string().nullable(),
})
export type UsersMeResponse = z.infer<typeof usersMeResponseSchema>

export type EmbeddedWalletAccountWire = z.infer<typeof embeddedWalletAccountSchema>

/** An embedded wallet (key in the enclave), as opposed to an external wallet linked by SIWE/SIWS. */
export const isEmbeddedWalletWire = (
  account: LinkedAccountWire,
): account is EmbeddedWalletAccountWire =>
  account.type === 'wallet' && account.connector_type === 'embedded'
