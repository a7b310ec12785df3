import { z } from 'zod'
import { ethereumAddressSchema } from './wallet.ts'

// Smart wallets (issue 24; docs/smart-wallets.md): an ERC-4337 smart account
// owned by the user's embedded Ethereum wallet, or that wallet itself
// upgraded by EIP-7702, with gas an app may sponsor.

/** Unix seconds. */
const timestamp = z.number().int()

/**
 * The account implementations (spec 01 `smart_wallet_type`): eth-infinitism's
 * SimpleAccount v0.7, Safe 1.4.1 with its 4337 module, and the embedded EOA
 * delegating to Simple7702Account (EIP-7702).
 */
export const SMART_WALLET_TYPES = ['safe', 'simple', 'simple_7702'] as const
export const smartWalletTypeSchema = z.enum(SMART_WALLET_TYPES)
export type SmartWalletType = z.infer<typeof smartWalletTypeSchema>

/**
 * eth-infinitism's audited Simple7702Account (EntryPoint v0.8), the only
 * EIP-7702 delegate a `simple_7702` wallet uses: the enclave signs
 * authorizations for no other, and the server sponsors no EOA delegating
 * elsewhere (an authorization hands the EOA's whole balance to its code).
 */
export const SIMPLE_7702_ACCOUNT_ADDRESS = '0xe6Cae83BdE06E4c305530e199D7217f42808555B'

/** Spec 01 `smart_wallet_version` of each type. */
export const SMART_WALLET_VERSIONS: Record<SmartWalletType, string> = {
  safe: '1.4.1',
  simple: '0.7',
  simple_7702: '0.8',
}

export { SMART_WALLET_CHAIN_IDS } from '../client-schemas.ts'

/** The app's smart-wallet setting as the browser sees it (no bundler or paymaster URL: they stay on the server). */
export const smartWalletConfigSchema = z.object({
  type: smartWalletTypeSchema,
  version: z.string(),
  chains: z.array(
    z.object({
      chain_id: z.number().int().positive(),
      /** The app pays the gas on this chain (a paymaster): the confirm screen says 'Sponsored'. */
      sponsored: z.boolean(),
    }),
  ),
})
export type SmartWalletConfig = z.infer<typeof smartWalletConfigSchema>

/** Spec 01 §7 "Smart-wallet link": a SIWE message for the smart account's address, signed by it. */
export const smartWalletLinkRequestSchema = z.object({
  message: z.string().min(1).max(4096),
  /** ERC-1271 (deployed), ERC-6492 (counterfactual) or, for simple_7702, the EOA's own signature. */
  signature: z
    .string()
    .regex(/^0x[0-9a-fA-F]+$/, 'Expected a hex signature')
    .max(20_000),
  smart_wallet_type: smartWalletTypeSchema,
  smart_wallet_version: z.string().min(1).max(16),
})
export type SmartWalletLinkRequest = z.input<typeof smartWalletLinkRequestSchema>

/** A linked smart wallet (spec 01 §3 `smart_wallet`). */
export const smartWalletAccountSchema = z.object({
  type: z.literal('smart_wallet'),
  address: ethereumAddressSchema,
  smart_wallet_type: smartWalletTypeSchema,
  smart_wallet_version: z.string(),
  verified_at: timestamp,
  first_verified_at: timestamp,
  latest_verified_at: timestamp,
})
export type SmartWalletAccountWire = z.infer<typeof smartWalletAccountSchema>
