import { z } from 'zod'

/**
 * Account transfer (spec 02 "Account transfer"): the `details` of an
 * ACCOUNT_TRANSFER_REQUIRED answer to a link call, when the login method
 * being linked is the only login method of another user.
 */
export const accountTransferOfferSchema = z.object({
  /** Single-use, short-lived; bound to the requesting user and the account. */
  nonce: z.string(),
  account: z.object({
    /** Linked-account type: email, phone, an OAuth provider, siwe, siws, farcaster, telegram. */
    type: z.string(),
    /** What the screen names the account by: the address, number, username… */
    display_name: z.string(),
    /**
     * OAuth accounts: the provider's subject, which oauth/transfer names (the
     * page never learns it otherwise). The caller has just proved this account.
     */
    subject: z.string().optional(),
  }),
  other_user: z.object({
    /** The other account's embedded Ethereum wallet (the "Check assets first" screen), if any. */
    embedded_wallet_address: z.string().nullable(),
    embedded_wallet_chain_type: z.enum(['ethereum', 'solana']).nullable(),
  }),
})
export type AccountTransferOffer = z.infer<typeof accountTransferOfferSchema>

/**
 * Account transfer: POST the nonce plus the account it was issued for
 * (spec 02 §7). Fields are optional here so that a missing one answers
 * TRANSFER_INPUTS_MISSING ('missing account transfer inputs') rather than a
 * generic validation error; each method's route reads its own fields.
 */
export const accountTransferRequestSchema = z.object({
  nonce: z.string().max(256).optional(),
  /** passwordless/transfer */
  email: z.string().max(254).optional(),
  /** passwordless_sms/transfer */
  phoneNumber: z.string().max(32).optional(),
  /** siwe/transfer and siws/transfer, with the wallet metadata (required for siwe). */
  address: z.string().max(128).optional(),
  walletClientType: z.string().max(64).optional(),
  connectorType: z.string().max(64).optional(),
  chainId: z.string().max(64).optional(),
  /** oauth/transfer */
  provider: z.string().max(32).optional(),
  subject: z.string().max(512).optional(),
  /** farcaster/transfer */
  farcaster_id: z.number().int().positive().optional(),
  farcaster_embedded_address: z.string().max(128).optional(),
  /** telegram/transfer */
  telegram_user_id: z.string().max(32).optional(),
  /** custom, guest and passkey are refused (TRANSFER_NOT_ALLOWED). */
  accountType: z.string().max(32).optional(),
})
export type AccountTransferRequest = z.input<typeof accountTransferRequestSchema>

/** An allowlist entry (docs/access-control.md). */
export const allowlistEntrySchema = z.object({
  type: z.enum(['email', 'email_domain', 'phone', 'wallet_address', 'wallet_name']),
  value: z.string().min(1).max(320),
})
export type AllowlistEntry = z.infer<typeof allowlistEntrySchema>
