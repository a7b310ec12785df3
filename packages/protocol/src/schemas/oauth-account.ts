import { z } from 'zod'

/** The social login providers (spec 01 "Capabilities"); also the linked-account type. */
export const oauthProviderSchema = z.enum([
  'google',
  'apple',
  'discord',
  'github',
  'linkedin',
  'spotify',
  'instagram',
  'twitter',
  'tiktok',
  'line',
])
export type OAuthProvider = z.infer<typeof oauthProviderSchema>
export const OAUTH_PROVIDERS: readonly OAuthProvider[] = oauthProviderSchema.options

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
