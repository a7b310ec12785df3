import { z } from 'zod'
import { chainTypeSchema } from './wallet.ts'

const timestamp = z.number().int()

/** A cross-app linked account (spec 01 §3 "Cross-app account": providerApp.id, embeddedWallets, smartWallets). */
export const crossAppAccountSchema = z.object({
  type: z.literal('cross_app'),
  /** The provider app's user id. */
  subject: z.string(),
  provider_app: z.object({ id: z.string() }),
  embedded_wallets: z.array(z.object({ address: z.string(), chain_type: chainTypeSchema })),
  smart_wallets: z.array(z.object({ address: z.string() })),
  verified_at: timestamp,
  first_verified_at: timestamp,
  latest_verified_at: timestamp,
})
export type CrossAppAccountWire = z.infer<typeof crossAppAccountSchema>
