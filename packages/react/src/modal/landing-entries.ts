import type { LoginMethod } from '@latchkey/core'
import { OAUTH_PROVIDERS } from '@latchkey/protocol/constants'

// What the provider's config needs to know of landing entries before the
// modal loads (config.ts); the layout itself is in landing.ts, with the modal.

/** Social providers: overflow of these alone reads 'Other socials' (spec 01 §2). */
export const SOCIAL_METHODS: ReadonlySet<LoginMethod> = new Set<LoginMethod>([
  ...OAUTH_PROVIDERS,
  'telegram',
  'farcaster',
])

/** Every login method name of spec 01 §3; any other entry of an order is a wallet. */
const LOGIN_METHOD_NAMES: ReadonlySet<string> = new Set<string>([
  ...SOCIAL_METHODS,
  'email',
  'sms',
  'wallet',
  'passkey',
])

/**
 * An entry of `loginMethodsAndOrder`: a login method, or a wallet of the
 * wallet list ('metamask', 'detected_wallets'…) drawn as a row of its own.
 */
export type LandingEntry = LoginMethod | (string & {})

/** A wallet entry (a slug or a detected-wallets group), not a login method. */
export const isWalletEntry = (entry: string): boolean => !LOGIN_METHOD_NAMES.has(entry)
