import { z } from 'zod'
import { hexDataSchema } from './transaction.ts'
import {
  base64urlSchema,
  chainTypeSchema,
  ethereumAddressSchema,
  walletAddressSchema,
} from './wallet.ts'

/**
 * Delegated actions (spec 03 §2 "Delegated actions", §4, §5; docs/delegated-actions.md):
 * with the user's consent the enclave seals the wallet's device share to the
 * server's delegation key; the app's backend then asks the server to sign
 * with that wallet under its app secret (`POST /api/v1/wallets/:id/rpc`).
 */

/** `GET /api/v1/embedded_wallets/delegation_key` (public). */
export const delegationKeyResponseSchema = z.object({
  /** Names the key pair; the enclave sends it back so a rotated key is refused, not misused. */
  key_id: z.string(),
  /** base64url of the uncompressed P-256 point (65 bytes, `0x04‖x‖y`). */
  public_key: base64urlSchema,
})
export type DelegationKeyResponse = z.infer<typeof delegationKeyResponseSchema>

/** The HKDF info and AES-GCM additional data of a sealed delegated share (UTF-8). */
export function delegationInfo(appId: string, userId: string, address: string): string {
  return `latchkey/delegation/v1|${appId}|${userId}|${address}`
}

/**
 * `POST /api/v1/embedded_wallets/delegate` (an enclave route, MFA): the device
 * share of the wallet's secret, sealed to the server's delegation key.
 *
 * Sealing (the enclave, WebCrypto):
 * - shared = ECDH P-256(ephemeral private key, server public key): the 32-byte x coordinate;
 * - info = UTF-8 {@link delegationInfo}(appId, userId, address) — `address` exactly as sent here;
 * - key = HKDF-SHA256(ikm = shared, salt = the 65 raw bytes of `ephemeral_public_key`, info) → AES-256-GCM;
 * - ciphertext = AES-256-GCM(key, iv, plaintext = the device share, additionalData = info).
 *
 * The plaintext is the device share exactly as the enclave stores it
 * (`DeviceShareRecord.deviceShare`): the Shamir share of the encoded secret
 * (kind byte ‖ payload: 16 bytes of BIP-39 entropy for `hd`, a 32-byte key for
 * an imported key) followed by its one-byte x-coordinate, i.e. 18 or 34 bytes.
 */
export const delegateWalletRequestSchema = z.strictObject({
  address: walletAddressSchema,
  chain_type: chainTypeSchema,
  key_id: z.string().min(1).max(200),
  /** base64url of the enclave's ephemeral uncompressed P-256 point (65 bytes). */
  ephemeral_public_key: base64urlSchema.refine((text) => text.length === 87, {
    message: 'Expected a 65-byte uncompressed P-256 point',
  }),
  /** base64url of the 12-byte AES-GCM nonce. */
  iv: base64urlSchema.refine((text) => text.length === 16, { message: 'Expected 12 bytes' }),
  ciphertext: base64urlSchema,
})
export type DelegateWalletRequest = z.input<typeof delegateWalletRequestSchema>

/** `POST /api/v1/embedded_wallets/revoke`: an empty body (spec 03 §7); `{}` is accepted too. */
export const revokeDelegationRequestSchema = z.strictObject({})
export type RevokeDelegationRequest = z.input<typeof revokeDelegationRequestSchema>

// ---------------------------------------------------------------------------
// Server API: `POST /api/v1/wallets/:wallet_id/rpc` (app secret). Field names
// follow Privy's wallet RPC API (method / params / caip2; snake_case fields).

/** An EVM chain as CAIP-2: `eip155:<chain id>`. */
export const eip155Caip2Schema = z
  .string()
  .regex(/^eip155:[1-9][0-9]{0,15}$/, 'Expected eip155:<chain id>')

/** Any CAIP-2 chain id (`eip155:1`, `solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp`). */
export const caip2Schema = z
  .string()
  .regex(/^[-a-z0-9]{3,8}:[-_a-zA-Z0-9]{1,32}$/, 'Expected a CAIP-2 chain id')

/** A quantity: 0x-hex, a decimal string, or a safe integer. */
export const rpcQuantitySchema = z.union([
  z.string().regex(/^0x[0-9a-fA-F]{1,64}$/, 'Expected a hex quantity'),
  z.string().regex(/^[0-9]{1,78}$/, 'Expected a decimal quantity'),
  z.number().int().min(0).max(Number.MAX_SAFE_INTEGER),
])
export type RpcQuantity = z.infer<typeof rpcQuantitySchema>

/** An Ethereum transaction to sign or send; what is missing the server fills from the chain. */
export const rpcEthereumTransactionSchema = z.strictObject({
  to: ethereumAddressSchema,
  value: rpcQuantitySchema.optional(),
  data: hexDataSchema.optional(),
  gas_limit: rpcQuantitySchema.optional(),
  nonce: rpcQuantitySchema.optional(),
  /** Must match `caip2` when given. */
  chain_id: rpcQuantitySchema.optional(),
  max_fee_per_gas: rpcQuantitySchema.optional(),
  max_priority_fee_per_gas: rpcQuantitySchema.optional(),
  gas_price: rpcQuantitySchema.optional(),
  /** 0 legacy, 2 EIP-1559 (the default). */
  type: z.union([z.literal(0), z.literal(2)]).optional(),
})
export type RpcEthereumTransaction = z.infer<typeof rpcEthereumTransactionSchema>

/** EIP-712 typed data as Privy takes it (`primary_type`). */
export const rpcTypedDataSchema = z.strictObject({
  domain: z.record(z.string(), z.unknown()),
  types: z.record(
    z.string(),
    z.array(z.strictObject({ name: z.string(), type: z.string() })).max(64),
  ),
  primary_type: z.string().min(1),
  message: z.record(z.string(), z.unknown()),
})

/** A base64 (standard alphabet, padded) string of bounded size. */
const base64Schema = z
  .string()
  .min(1)
  .max(8192)
  .regex(/^[A-Za-z0-9+/]+={0,2}$/, 'Expected base64')

export const walletRpcRequestSchema = z.discriminatedUnion('method', [
  z.strictObject({
    method: z.literal('personal_sign'),
    params: z.strictObject({
      /** UTF-8 text, or 0x-hex bytes with `encoding: 'hex'`. */
      message: z.string().max(16_384),
      encoding: z.enum(['utf-8', 'hex']).optional(),
    }),
  }),
  z.strictObject({
    method: z.literal('eth_signTypedData_v4'),
    params: z.strictObject({ typed_data: rpcTypedDataSchema }),
  }),
  z.strictObject({
    method: z.literal('eth_signTransaction'),
    caip2: eip155Caip2Schema,
    params: z.strictObject({ transaction: rpcEthereumTransactionSchema }),
  }),
  z.strictObject({
    method: z.literal('eth_sendTransaction'),
    caip2: eip155Caip2Schema,
    params: z.strictObject({ transaction: rpcEthereumTransactionSchema }),
  }),
  z.strictObject({
    method: z.literal('signMessage'),
    caip2: caip2Schema.optional(),
    params: z.strictObject({ message: base64Schema, encoding: z.literal('base64') }),
  }),
  z.strictObject({
    method: z.literal('signTransaction'),
    caip2: caip2Schema.optional(),
    params: z.strictObject({
      /** The serialized transaction (signature slots, then the message), base64. */
      transaction: base64Schema,
      encoding: z.literal('base64').optional(),
    }),
  }),
])
export type WalletRpcRequest = z.input<typeof walletRpcRequestSchema>
export type WalletRpcMethod = WalletRpcRequest['method']
export const walletRpcMethods = [
  'personal_sign',
  'eth_signTypedData_v4',
  'eth_signTransaction',
  'eth_sendTransaction',
  'signMessage',
  'signTransaction',
] as const satisfies readonly WalletRpcMethod[]

export const walletRpcResponseSchema = z.discriminatedUnion('method', [
  z.object({
    method: z.literal('personal_sign'),
    data: z.object({ signature: z.string(), encoding: z.literal('hex') }),
  }),
  z.object({
    method: z.literal('eth_signTypedData_v4'),
    data: z.object({ signature: z.string(), encoding: z.literal('hex') }),
  }),
  z.object({
    method: z.literal('eth_signTransaction'),
    data: z.object({ signed_transaction: z.string(), encoding: z.literal('rlp') }),
  }),
  z.object({
    method: z.literal('eth_sendTransaction'),
    data: z.object({ hash: z.string(), caip2: z.string() }),
  }),
  z.object({
    method: z.literal('signMessage'),
    data: z.object({ signature: z.string(), encoding: z.literal('base64') }),
  }),
  z.object({
    method: z.literal('signTransaction'),
    data: z.object({ signed_transaction: z.string(), encoding: z.literal('base64') }),
  }),
])
export type WalletRpcResponse = z.infer<typeof walletRpcResponseSchema>

// ---------------------------------------------------------------------------
// The audit log: `GET /api/v1/embedded_wallets/delegated_actions` (the user).

/**
 * `pending`: a transaction under the app's daily cap whose value is reserved
 * while it is signed (or whose signing was cut short: it keeps counting).
 */
export const delegatedActionOutcomeSchema = z.enum(['signed', 'refused', 'pending'])

/** One server-side signature attempt with a delegated wallet (signed, refused or pending). */
export const delegatedActionSchema = z.object({
  id: z.string(),
  address: z.string(),
  chain_type: chainTypeSchema,
  method: z.string(),
  caip2: z.string().nullable(),
  /** The transaction's recipient, for transactions. */
  to: z.string().nullable(),
  /** Wei as a decimal string, for Ethereum transactions. */
  value: z.string().nullable(),
  /** The transaction hash (sends), or the signature's first characters. */
  result: z.string().nullable(),
  outcome: delegatedActionOutcomeSchema,
  /** The error code of a refusal. */
  refusal_code: z.string().nullable(),
  /** Unix seconds. */
  created_at: z.number().int(),
})
export type DelegatedActionWire = z.infer<typeof delegatedActionSchema>

/** Newest first; `next_cursor` is null on the last page (query: `limit`, `cursor`, as key activity). */
export const delegatedActionsResponseSchema = z.object({
  data: z.array(delegatedActionSchema),
  next_cursor: z.string().nullable(),
})
export type DelegatedActionsResponse = z.infer<typeof delegatedActionsResponseSchema>
