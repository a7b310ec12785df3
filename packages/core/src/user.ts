import type { LinkedAccountWire, UserWire } from '@latchkey/protocol/schemas'

/** An MFA method (spec 02 §3): SMS code, authenticator app (TOTP) or passkey. */
export type MfaMethod = 'sms' | 'totp' | 'passkey'

export interface EmailAccount {
  type: 'email'
  address: string
  verifiedAt: Date
  firstVerifiedAt: Date
  latestVerifiedAt: Date
}

/** A phone number (SMS / WhatsApp login), E.164. */
export interface PhoneAccount {
  type: 'phone'
  number: string
  verifiedAt: Date
  firstVerifiedAt: Date
  latestVerifiedAt: Date
}

/** An embedded wallet: its key lives only in the enclave (spec 01 §3 "Wallet account fields"). */
export interface EmbeddedWalletAccount {
  type: 'wallet'
  address: string
  chainType: 'ethereum' | 'solana'
  /** HD index; null for an imported key. */
  walletIndex: number | null
  walletClientType: 'latchkey'
  connectorType: 'embedded'
  imported: boolean
  delegated: boolean
  /** How the wallet is rebuilt on a new device. */
  recoveryMethod: 'latchkey' | 'user-passcode' | 'google-drive' | 'icloud'
  entropyId: string
  verifiedAt: Date
  firstVerifiedAt: Date
  latestVerifiedAt: Date
}

/**
 * An external wallet the user signed in with (SIWE / SIWS): MetaMask,
 * Phantom, Coinbase Wallet… Its key stays in that wallet.
 */
export interface ExternalWalletAccount {
  type: 'wallet'
  address: string
  chainType: 'ethereum' | 'solana'
  /** CAIP-2 chain of the last sign-in (`eip155:1`); null for Solana. */
  chainId: string | null
  walletIndex: null
  walletClientType: string
  connectorType:
    | 'injected'
    | 'wallet_connect_v2'
    | 'coinbase_wallet'
    | 'base_account'
    | 'solana_adapter'
  imported: false
  delegated: false
  verifiedAt: Date
  firstVerifiedAt: Date
  latestVerifiedAt: Date
}

/** A wallet linked to the user, embedded or external; tell them apart by `connectorType`. */
export type WalletAccount = EmbeddedWalletAccount | ExternalWalletAccount

/** Embedded wallets only (the enclave holds their keys). */
export const isEmbeddedWallet = (account: LinkedAccount): account is EmbeddedWalletAccount =>
  account.type === 'wallet' && account.connectorType === 'embedded'

/** External wallets only (SIWE / SIWS). */
export const isExternalWallet = (account: LinkedAccount): account is ExternalWalletAccount =>
  account.type === 'wallet' && account.connectorType !== 'embedded'

/** A Farcaster account (Sign In With Farcaster); `ownerAddress` is the fid's custody address. */
export interface FarcasterAccount {
  type: 'farcaster'
  fid: number
  ownerAddress: string
  username: string | null
  displayName: string | null
  bio: string | null
  pfp: string | null
  signerPublicKey: string | null
  verifiedAt: Date
  firstVerifiedAt: Date
  latestVerifiedAt: Date
}

/** A Telegram account (Login Widget or Mini App). */
export interface TelegramAccount {
  type: 'telegram'
  telegramUserId: string
  firstName: string | null
  lastName: string | null
  username: string | null
  photoUrl: string | null
  verifiedAt: Date
  firstVerifiedAt: Date
  latestVerifiedAt: Date
}

/** The app's own account of the user (custom-JWT login): the JWT's subject. */
export interface CustomJwtAccount {
  type: 'custom'
  customUserId: string
  verifiedAt: Date
  firstVerifiedAt: Date
  latestVerifiedAt: Date
}

/** A guest account (removed when the guest links a login method). */
export interface GuestAccount {
  type: 'guest'
  verifiedAt: Date
  firstVerifiedAt: Date
  latestVerifiedAt: Date
}

/** A social (OAuth) account; `type` is the provider, keyed by its subject. */
export interface OAuthAccount {
  type:
    | 'google'
    | 'apple'
    | 'discord'
    | 'github'
    | 'linkedin'
    | 'spotify'
    | 'instagram'
    | 'twitter'
    | 'tiktok'
    | 'line'
  subject: string
  email: string | null
  name: string | null
  username: string | null
  profilePictureUrl: string | null
  verifiedAt: Date
  firstVerifiedAt: Date
  latestVerifiedAt: Date
}

/** A passkey (WebAuthn credential) linked to a user; up to 5 per user. */
export interface PasskeyAccount {
  type: 'passkey'
  /** base64url credential id. */
  credentialId: string
  /** From the authenticator's AAGUID where known, e.g. 'iCloud Keychain'. */
  authenticatorName: string | null
  createdWithBrowser: string | null
  createdWithOs: string | null
  createdWithDevice: string | null
  enrolledInMfa: boolean
  verifiedAt: Date
  firstVerifiedAt: Date
  latestVerifiedAt: Date
}

/**
 * An account of another app on the same Latchkey server, linked by cross-app
 * login (spec 01 §3 "Cross-app account"; docs/cross-app.md): that app's user
 * id and the embedded wallets it may be asked to sign with.
 */
export interface CrossAppAccount {
  type: 'cross_app'
  /** The provider app's user id. */
  subject: string
  providerApp: { id: string }
  embeddedWallets: { address: string; chainType: 'ethereum' | 'solana' }[]
  smartWallets: { address: string }[]
  verifiedAt: Date
  firstVerifiedAt: Date
  latestVerifiedAt: Date
}

/**
 * The user's smart wallet (spec 01 §3 `smart_wallet`; docs/smart-wallets.md): an ERC-4337
 * account owned by the embedded Ethereum wallet, or that wallet upgraded by EIP-7702.
 */
export interface SmartWalletAccount {
  type: 'smart_wallet'
  address: string
  smartWalletType: 'safe' | 'simple' | 'simple_7702'
  smartWalletVersion: string
  verifiedAt: Date
  firstVerifiedAt: Date
  latestVerifiedAt: Date
}

/** An account linked to a user; a union on `type`, grown by each login method. */
export type LinkedAccount =
  | EmailAccount
  | EmbeddedWalletAccount
  | ExternalWalletAccount
  | FarcasterAccount
  | PhoneAccount
  | TelegramAccount
  | CustomJwtAccount
  | GuestAccount
  | OAuthAccount
  | PasskeyAccount
  | CrossAppAccount
  | SmartWalletAccount

/** A Latchkey user as apps see it (spec 01 §3 "User"). */
export interface User {
  id: string
  createdAt: Date
  linkedAccounts: LinkedAccount[]
  email?: { address: string }
  /** The linked phone number (E.164), if any. */
  phone?: { number: string }
  /** The first embedded Ethereum wallet, if any. */
  wallet?: { address: string; chainType: 'ethereum' | 'solana' }
  /** The linked Farcaster account, if any. */
  farcaster?: { fid: number; username: string | null }
  mfaMethods: MfaMethod[]
  hasAcceptedTerms: boolean
  isGuest: boolean
}

const date = (seconds: number) => new Date(seconds * 1000)

const camel = (key: string) => key.replace(/_([a-z])/g, (_, c: string) => c.toUpperCase())

/** The wire's snake_case keys as camelCase at any depth, and its `*_at` Unix seconds as Dates. */
function fromWire(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(fromWire)
  if (value === null || typeof value !== 'object') return value
  const out: Record<string, unknown> = {}
  for (const [key, item] of Object.entries(value))
    out[camel(key)] = key.endsWith('_at') && typeof item === 'number' ? date(item) : fromWire(item)
  return out
}

/**
 * One linked account: every field is its wire field in camelCase (user.test.ts
 * spells each type out), except Farcaster's picture, `pfp` as Farcaster names it.
 * Generic rather than a switch of hand-written objects: this runs at session
 * restore, so it sits in the first chunk a page loads (docs/first-load.md).
 */
function toLinkedAccount(account: LinkedAccountWire): LinkedAccount {
  const linked = fromWire(account) as Record<string, unknown>
  if (account.type !== 'farcaster') return linked as unknown as LinkedAccount
  const { profilePictureUrl: pfp, ...rest } = linked
  return { ...rest, pfp } as unknown as LinkedAccount
}

/** Maps the wire user (snake_case) to the client's `User`. */
export function toUser(wire: UserWire): User {
  const linkedAccounts = wire.linked_accounts.map(toLinkedAccount)
  const email = linkedAccounts.find((a): a is EmailAccount => a.type === 'email')
  const phone = linkedAccounts.find((a): a is PhoneAccount => a.type === 'phone')
  const wallet = linkedAccounts.find(
    (a): a is EmbeddedWalletAccount =>
      isEmbeddedWallet(a) && a.chainType === 'ethereum' && a.walletIndex === 0,
  )
  const farcaster = linkedAccounts.find((a): a is FarcasterAccount => a.type === 'farcaster')
  return {
    id: wire.id,
    createdAt: date(wire.created_at),
    linkedAccounts,
    ...(email ? { email: { address: email.address } } : {}),
    ...(phone ? { phone: { number: phone.number } } : {}),
    ...(wallet ? { wallet: { address: wallet.address, chainType: wallet.chainType } } : {}),
    ...(farcaster ? { farcaster: { fid: farcaster.fid, username: farcaster.username } } : {}),
    mfaMethods: [...wire.mfa_methods],
    hasAcceptedTerms: wire.has_accepted_terms,
    isGuest: wire.is_guest,
  }
}
