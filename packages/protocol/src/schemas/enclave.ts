import { z } from 'zod'
import { ErrorCode } from '../errors.ts'
import { cloudOAuthResultSchema } from './cloud-recovery.ts'
import { codeSchema } from './common.ts'
import {
  mfaUnenrollRequestSchema,
  mfaVerifyRequestSchema,
  passkeyMfaEnrollRequestSchema,
} from './mfa.ts'
import { phoneNumberSchema } from './sms.ts'
import { ethereumTransactionWireSchema, solanaTransactionWireSchema } from './transaction.ts'
import {
  base64urlSchema,
  chainTypeSchema,
  ethereumAddressSchema,
  walletAddressSchema,
} from './wallet.ts'

/**
 * Messages between the host page (core's enclave bridge) and the enclave
 * iframe. Requests are `{ id, event, data }`; answers are
 * `{ id, event: event + ':result', data }` or `{ id, event: event + ':error', error }`.
 * The enclave validates every request against these schemas (security bar 46).
 */

const accessToken = z.string().min(1).max(4096)

/** How a new or changed recovery share is sealed. The password never leaves the enclave. */
export const recoveryChoiceSchema = z.discriminatedUnion('method', [
  z.object({ method: z.literal('latchkey') }),
  z.object({ method: z.literal('user-passcode'), password: z.string().min(6).max(1024) }),
  /** The enclave exchanges `oauth` at the server, stores a new key in the drive, seals under it. */
  z.object({
    method: z.literal('google-drive'),
    oauth: cloudOAuthResultSchema.extend({ provider: z.literal('google-drive') }),
  }),
  z.object({
    method: z.literal('icloud'),
    oauth: cloudOAuthResultSchema.extend({ provider: z.literal('icloud') }),
  }),
])
export type RecoveryChoice = z.infer<typeof recoveryChoiceSchema>

export const enclaveRequestSchemas = {
  /** Creates a new HD secret and its first wallets (Ethereum then Solana, index 0). */
  'latchkey:wallets:create': z.object({
    access_token: accessToken,
    chain_types: z.array(chainTypeSchema).min(1).max(2),
    recovery: recoveryChoiceSchema,
  }),
  /** Adds an HD wallet (another index, or the first on the other chain) of an existing secret. */
  'latchkey:wallets:add': z.object({
    access_token: accessToken,
    entropy_id: walletAddressSchema,
    chain_type: chainTypeSchema,
    wallet_index: z.number().int().min(0).max(1_000),
  }),
  /** Loads the device share; says whether the secret must be recovered on this device. */
  'latchkey:wallets:connect': z.object({
    access_token: accessToken,
    entropy_id: walletAddressSchema,
  }),
  /** Rebuilds the device share from the recovery share (automatic, or with the password). */
  'latchkey:wallets:recover': z.object({
    access_token: accessToken,
    entropy_id: walletAddressSchema,
    password: z.string().min(1).max(1024).optional(),
    /** Cloud-drive recovery: the consent's result; the enclave fetches the key from the drive. */
    oauth: cloudOAuthResultSchema.optional(),
  }),
  'latchkey:wallets:set-recovery': z.object({
    access_token: accessToken,
    entropy_id: walletAddressSchema,
    recovery: recoveryChoiceSchema,
  }),
  /** A signing request for one wallet: messages, typed data, transactions (docs/transactions.md). */
  'latchkey:wallets:rpc': z.object({
    access_token: accessToken,
    entropy_id: walletAddressSchema,
    chain_type: chainTypeSchema,
    wallet_index: z.number().int().min(0).max(1_000).nullable(),
    request: z.discriminatedUnion('method', [
      z.object({ method: z.literal('personal_sign'), params: z.tuple([z.string(), z.string()]) }),
      z.object({
        method: z.literal('eth_signTypedData_v4'),
        params: z.tuple([z.string(), z.string().max(65_536)]),
      }),
      z.object({
        method: z.literal('signMessage'),
        params: z.object({ message: base64urlSchema }),
      }),
      /** Answers the signed serialized transaction (0x-hex, EIP-2718 for eip1559). */
      z.object({
        method: z.literal('eth_signTransaction'),
        params: z.tuple([ethereumTransactionWireSchema]),
      }),
      /**
       * EIP-7702: the enclave hashes `keccak256(0x05 ‖ rlp([chainId, address, nonce]))`
       * itself and answers the 65-byte signature (0x r ‖ s ‖ v). Chain id 0
       * (valid on every chain) is refused; so is any implementation but the
       * audited Simple7702Account (docs/smart-wallets.md).
       */
      z.object({
        method: z.literal('eth_signAuthorization'),
        params: z.tuple([
          z.object({
            chainId: z.number().int().positive().max(Number.MAX_SAFE_INTEGER),
            address: ethereumAddressSchema,
            nonce: z.number().int().min(0).max(Number.MAX_SAFE_INTEGER),
          }),
        ]),
      }),
      /** Answers the wire transaction with this wallet's signature in its slot (base64url). */
      z.object({
        method: z.literal('signTransaction'),
        params: z.object({ transaction: solanaTransactionWireSchema }),
      }),
    ]),
  }),
  'latchkey:wallets:import': z.object({
    access_token: accessToken,
    chain_type: chainTypeSchema,
    private_key: z.string().min(1).max(200),
  }),
  /**
   * Deletes the signed-in user at the server (routes.usersDelete), then this
   * device's shares of the user's wallets; nothing local goes if the server refuses.
   */
  'latchkey:account:delete': z.object({ access_token: accessToken }),
  /** Forgets the device shares held for this app (logout). */
  'latchkey:clear': z.object({}),
  /**
   * MFA (docs/mfa.md; spec 02 §7 "Wallet proxy": mfa verify, init-enrollment,
   * submit-enrollment, unenroll, clear). The enclave calls the MFA routes,
   * which answer only to it. `init-verify` sends the SMS code to the enrolled
   * phone, or answers a passkey's assertion options (`{ relying_party, options }`).
   */
  'latchkey:mfa:init-verify': z.object({
    access_token: accessToken,
    method: z.enum(['sms', 'passkey']),
  }),
  /** Answers the verification (`{ method, verified_at, expires_at }`). */
  'latchkey:mfa:verify': z.object({ access_token: accessToken, request: mfaVerifyRequestSchema }),
  /** TOTP answers `{ secret, auth_url }`; SMS sends a code to `phone_number` and answers `{}`. */
  'latchkey:mfa:init-enrollment': z.object({
    access_token: accessToken,
    request: z.discriminatedUnion('method', [
      z.object({ method: z.literal('totp') }),
      z.object({ method: z.literal('sms'), phone_number: phoneNumberSchema }),
    ]),
  }),
  /** Answers `{ user, verification }` (verification null for passkeys). */
  'latchkey:mfa:submit-enrollment': z.object({
    access_token: accessToken,
    request: z.discriminatedUnion('method', [
      z.object({ method: z.literal('totp'), code: codeSchema }),
      z.object({ method: z.literal('sms'), phone_number: phoneNumberSchema, code: codeSchema }),
      passkeyMfaEnrollRequestSchema.extend({ method: z.literal('passkey') }),
    ]),
  }),
  /** Answers `{ user }`. */
  'latchkey:mfa:unenroll': z.object({
    access_token: accessToken,
    request: mfaUnenrollRequestSchema,
  }),
  /** Ends this session's verification (server and the enclave's warm keys); answers `{}`. */
  'latchkey:mfa:clear': z.object({ access_token: accessToken }),
  /**
   * Farcaster signer (spec 03 §7): makes (or reuses) this user's ed25519 key
   * here and starts its signed key request at the server; answers the
   * signer's `{ public_key, status, signer_approval_url, fid }`.
   */
  'latchkey:farcaster-signer:init': z.object({ access_token: accessToken }),
  /** Signs a Farcaster message hash (base64url, at most 64 bytes) with that key; `{ signature }` base64url. */
  'latchkey:farcaster-signer:sign': z.object({
    access_token: accessToken,
    message_hash: base64urlSchema,
  }),
  /**
   * Delegated actions (spec 03 §2; docs/delegated-actions.md): seals this
   * device's share of the wallet's secret to the server's delegation key and
   * posts it to the delegate route (MFA); answers `{ user }`.
   */
  'latchkey:delegate': z.object({
    access_token: accessToken,
    address: walletAddressSchema,
    chain_type: chainTypeSchema,
  }),
} as const

export type EnclaveEvent = keyof typeof enclaveRequestSchemas
export type EnclaveRequest<E extends EnclaveEvent> = z.input<(typeof enclaveRequestSchemas)[E]>

/**
 * An enclave `:error` answer. A server refusal keeps the server's `details`
 * (e.g. MFA_REQUIRED's `{ mfa_methods }`) and `retry_after` (seconds, e.g.
 * MFA_MAX_ATTEMPTS), as in the server's error body.
 */
export const enclaveErrorSchema = z.object({
  code: z.enum(Object.values(ErrorCode) as [ErrorCode, ...ErrorCode[]]),
  message: z.string(),
  details: z.unknown().optional(),
  retry_after: z.number().int().nonnegative().optional(),
})
export type EnclaveErrorBody = z.infer<typeof enclaveErrorSchema>

/** Parses a raw message into a known request, or returns null (unknown or malformed: ignored). */
export function parseEnclaveRequest(
  raw: unknown,
): { id: string; event: EnclaveEvent; data: unknown } | null {
  if (!raw || typeof raw !== 'object') return null
  const { id, event, data } = raw as { id?: unknown; event?: unknown; data?: unknown }
  if (typeof id !== 'string' || id.length === 0 || id.length > 100) return null
  if (typeof event !== 'string' || !Object.hasOwn(enclaveRequestSchemas, event)) return null
  const parsed = enclaveRequestSchemas[event as EnclaveEvent].safeParse(data)
  return parsed.success ? { id, event: event as EnclaveEvent, data: parsed.data } : null
}
