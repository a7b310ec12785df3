import { z } from 'zod'
import { CONNECTOR_TYPES } from '../constants.ts'
import { authModeSchema } from './common.ts'
import { chainTypeSchema, ethereumAddressSchema, solanaAddressSchema } from './wallet.ts'

/** Unix seconds. */
const timestamp = z.number().int()

export const connectorTypeSchema = z.enum(CONNECTOR_TYPES)

/** A wallet's slug: `metamask`, `coinbase_wallet`, `phantom`, `rainbow`… (lowercase, `_` or `-`). */
export const walletClientTypeSchema = z
  .string()
  .trim()
  .min(1)
  .max(64)
  .regex(/^[a-z0-9][a-z0-9_.-]*$/, 'Expected a wallet slug')

/** A CAIP-2 Ethereum chain id, `eip155:{decimal}`. */
export const caip2EthereumChainIdSchema = z.string().regex(/^eip155:[1-9]\d{0,15}$/)

const captcha = { token: z.string().max(4096).optional() }

/**
 * Sign-in nonce request (SIWE and SIWS): the server issues a single-use
 * 128-bit nonce bound to this address and app (security bar 17).
 */
export const siweInitRequestSchema = z.object({ address: ethereumAddressSchema, ...captcha })
export type SiweInitRequest = z.input<typeof siweInitRequestSchema>
export const siwsInitRequestSchema = z.object({ address: solanaAddressSchema, ...captcha })
export type SiwsInitRequest = z.input<typeof siwsInitRequestSchema>

export const siweInitResponseSchema = z.object({
  nonce: z.string(),
  address: z.string(),
  /** Unix ms. */
  expires_at: z.number().int(),
})
export type SiweInitResponse = z.infer<typeof siweInitResponseSchema>

/**
 * What a Solana wallet's `solana:signIn` receives (Wallet Standard's
 * SolanaSignInInput, snake_cased). The server builds it at init from the
 * caller's origin; authenticate requires every field of the signed message
 * to equal it (security bar 20).
 */
export const siwsSignInInputSchema = z.object({
  domain: z.string(),
  address: z.string(),
  statement: z.string().optional(),
  uri: z.string(),
  version: z.literal('1'),
  chain_id: z.string(),
  nonce: z.string(),
  issued_at: z.string(),
  expiration_time: z.string().optional(),
})
export type SiwsSignInInput = z.infer<typeof siwsSignInInputSchema>

export const siwsInitResponseSchema = siweInitResponseSchema.extend({
  sign_in_input: siwsSignInInputSchema,
})
export type SiwsInitResponse = z.infer<typeof siwsInitResponseSchema>

const walletIdentity = {
  wallet_client_type: walletClientTypeSchema,
  connector_type: connectorTypeSchema,
}

/** An EIP-4361 message and its signature (hex; ERC-6492-wrapped signatures can be long). */
const siwePayload = {
  message: z.string().min(1).max(4096),
  signature: z
    .string()
    .regex(/^0x[0-9a-fA-F]*$/, 'Expected a hex signature')
    .min(4)
    .max(40_000),
  /** The chain the wallet was on when it signed; must equal the message's Chain ID. */
  chain_id: caip2EthereumChainIdSchema.optional(),
  ...walletIdentity,
  ...captcha,
}

export const siweAuthenticateRequestSchema = z.object({
  ...siwePayload,
  mode: authModeSchema.default('login-or-sign-up'),
})
export type SiweAuthenticateRequest = z.input<typeof siweAuthenticateRequestSchema>
export const siweLinkRequestSchema = z.object(siwePayload)
export type SiweLinkRequest = z.input<typeof siweLinkRequestSchema>
export const siweUnlinkRequestSchema = z.object({ address: ethereumAddressSchema })
export type SiweUnlinkRequest = z.input<typeof siweUnlinkRequestSchema>

/**
 * A SIWS sign-in. `plain`: `message` is the sign-in message text (UTF-8)
 * and `signature` an Ed25519 signature over it. `transaction` (Ledger, which
 * cannot sign messages): `message` is a base64 serialized transaction whose
 * memo instruction carries the sign-in message text, signed by the address.
 */
const siwsPayload = {
  message: z.string().min(1).max(8192),
  /** base64 (or base58) Ed25519 signature, 64 bytes. */
  signature: z.string().min(64).max(128),
  message_type: z.enum(['plain', 'transaction']).default('plain'),
  ...walletIdentity,
  ...captcha,
}

export const siwsAuthenticateRequestSchema = z.object({
  ...siwsPayload,
  mode: authModeSchema.default('login-or-sign-up'),
})
export type SiwsAuthenticateRequest = z.input<typeof siwsAuthenticateRequestSchema>
export const siwsLinkRequestSchema = z.object(siwsPayload)
export type SiwsLinkRequest = z.input<typeof siwsLinkRequestSchema>
export const siwsUnlinkRequestSchema = z.object({ address: solanaAddressSchema })
export type SiwsUnlinkRequest = z.input<typeof siwsUnlinkRequestSchema>

/**
 * An external wallet linked by SIWE or SIWS (spec 01 §3 "Wallet account
 * fields"). Wire type `wallet`, like embedded wallets; `connector_type` tells
 * them apart (`embedded` is never an external connector).
 */
export const externalWalletAccountSchema = z.object({
  type: z.literal('wallet'),
  address: z.string(),
  chain_type: chainTypeSchema,
  /** CAIP-2 chain of the last sign-in (`eip155:1`); null for Solana. */
  chain_id: z.string().nullable(),
  wallet_client_type: z.string(),
  connector_type: connectorTypeSchema,
  wallet_index: z.null(),
  imported: z.literal(false),
  delegated: z.literal(false),
  verified_at: timestamp,
  first_verified_at: timestamp,
  latest_verified_at: timestamp,
})
export type ExternalWalletAccountWire = z.infer<typeof externalWalletAccountSchema>
