import { z } from 'zod'
import { OAUTH_PROVIDERS } from '../constants.ts'
import { userSchema } from './user.ts'
import { chainTypeSchema, recoveryMethodSchema } from './wallet.ts'

// The server-to-server API of app backends, under the app secret
// (`Authorization: Basic base64(appId:appSecret)`; docs/server-api.md).

/** Most users one page of `GET /api/v1/users` holds (and its default). */
export const APP_USERS_PAGE_MAX = 100

/** `GET /api/v1/users?cursor=…&limit=…`: the app's users, oldest first. */
export const listUsersQuerySchema = z.strictObject({
  /** The `next_cursor` of the previous page; absent for the first page. */
  cursor: z.string().min(1).max(200).optional(),
  limit: z.coerce.number().int().min(1).max(APP_USERS_PAGE_MAX).optional(),
})
export type ListUsersQuery = z.input<typeof listUsersQuerySchema>

export const listUsersResponseSchema = z.object({
  data: z.array(userSchema),
  /** Pass it as `cursor` for the next page; null on the last page. */
  next_cursor: z.string().nullable(),
})
export type ListUsersResponse = z.infer<typeof listUsersResponseSchema>

/**
 * Linked-account types a user can be found by with `{ account: { type,
 * identifier } }`: identifiers as the user wire shows them (`custom_user_id`,
 * a Farcaster `fid`, `telegram_user_id`, an OAuth `subject`, a passkey's
 * `credential_id`, an email address, an E.164 number).
 */
export const LOOKUP_ACCOUNT_TYPES = [
  'email',
  'phone',
  'custom',
  'farcaster',
  'telegram',
  'passkey',
  ...OAUTH_PROVIDERS,
] as const
export type LookupAccountType = (typeof LOOKUP_ACCOUNT_TYPES)[number]

const identifier = z.string().trim().min(1).max(512)

/** `POST /api/v1/users/lookup`: exactly one way to name the user. */
export const lookupUserRequestSchema = z.union([
  z.strictObject({ email: identifier }),
  z.strictObject({ phone_number: identifier }),
  /** An embedded or external wallet's address (Ethereum any case, Solana base58). */
  z.strictObject({ wallet_address: identifier }),
  z.strictObject({
    account: z.strictObject({ type: z.enum(LOOKUP_ACCOUNT_TYPES), identifier }),
  }),
])
export type LookupUserRequest = z.infer<typeof lookupUserRequestSchema>

/** An embedded wallet as an app backend sees it: public data only, never a share. */
export const appWalletSchema = z.object({
  /** The wallet's id on this server. */
  id: z.string(),
  address: z.string(),
  chain_type: chainTypeSchema,
  /** HD index; null for an imported key. */
  wallet_index: z.number().int().nullable(),
  /** The wallet's secret: its first address (shared by the wallets of one HD secret). */
  entropy_id: z.string(),
  imported: z.boolean(),
  delegated: z.boolean(),
  recovery_method: recoveryMethodSchema,
  /** Unix seconds. */
  created_at: z.number().int(),
})
export type AppWallet = z.infer<typeof appWalletSchema>

export const userWalletsResponseSchema = z.object({ data: z.array(appWalletSchema) })
export type UserWalletsResponse = z.infer<typeof userWalletsResponseSchema>
