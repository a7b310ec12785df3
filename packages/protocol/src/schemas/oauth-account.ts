import { z } from 'zod'
import { OAUTH_PROVIDERS } from '../constants.ts'

/** The social login providers (spec 01 "Capabilities"); also the linked-account type. */
export const oauthProviderSchema = z.enum(OAUTH_PROVIDERS)
export type OAuthProvider = z.infer<typeof oauthProviderSchema>
export { OAUTH_PROVIDERS }

/** Unix seconds. */
const timestamp = z.number().int()

/** A social account: `type` is the provider, keyed by the provider's subject. */
export const oauthAccountSchema = z.object({
  type: oauthProviderSchema,
  subject: z.string(),
  email: z.string().nullable(),
  name: z.string().nullable(),
  username: z.string().nullable(),
  profile_picture_url: z.string().nullable(),
  verified_at: timestamp,
  first_verified_at: timestamp,
  latest_verified_at: timestamp,
})
export type OAuthAccountWire = z.infer<typeof oauthAccountSchema>
