import type { LinkedAccountWire, UserWire } from '@latchkey/protocol/schemas'

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

/** An account linked to a user; a union on `type`, grown by each login method. */
export type LinkedAccount =
  | EmailAccount
  | EmbeddedWalletAccount
  | PhoneAccount
  | TelegramAccount
  | CustomJwtAccount
  | GuestAccount
  | OAuthAccount

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
  mfaMethods: Array<'sms' | 'totp' | 'passkey'>
  hasAcceptedTerms: boolean
  isGuest: boolean
}

const date = (seconds: number) => new Date(seconds * 1000)

function toLinkedAccount(account: LinkedAccountWire): LinkedAccount {
  switch (account.type) {
    case 'google':
    case 'apple':
    case 'discord':
    case 'github':
    case 'linkedin':
    case 'spotify':
    case 'instagram':
    case 'twitter':
    case 'tiktok':
    case 'line':
      return {
        type: account.type,
        subject: account.subject,
        email: account.email,
        name: account.name,
        username: account.username,
        profilePictureUrl: account.profile_picture_url,
        verifiedAt: date(account.verified_at),
        firstVerifiedAt: date(account.first_verified_at),
        latestVerifiedAt: date(account.latest_verified_at),
      }
    case 'email':
      return {
        type: 'email',
        address: account.address,
        verifiedAt: date(account.verified_at),
        firstVerifiedAt: date(account.first_verified_at),
        latestVerifiedAt: date(account.latest_verified_at),
      }
    case 'wallet':
      return {
        type: 'wallet',
        address: account.address,
        chainType: account.chain_type,
        walletIndex: account.wallet_index,
        walletClientType: account.wallet_client_type,
        connectorType: account.connector_type,
        imported: account.imported,
        delegated: account.delegated,
        recoveryMethod: account.recovery_method,
        entropyId: account.entropy_id,
        verifiedAt: date(account.verified_at),
        firstVerifiedAt: date(account.first_verified_at),
        latestVerifiedAt: date(account.latest_verified_at),
      }
    case 'phone':
      return {
        type: 'phone',
        number: account.number,
        verifiedAt: date(account.verified_at),
        firstVerifiedAt: date(account.first_verified_at),
        latestVerifiedAt: date(account.latest_verified_at),
      }
    case 'telegram':
      return {
        type: 'telegram',
        telegramUserId: account.telegram_user_id,
        firstName: account.first_name,
        lastName: account.last_name,
        username: account.username,
        photoUrl: account.photo_url,
        verifiedAt: date(account.verified_at),
        firstVerifiedAt: date(account.first_verified_at),
        latestVerifiedAt: date(account.latest_verified_at),
      }
    case 'custom':
      return {
        type: 'custom',
        customUserId: account.custom_user_id,
        verifiedAt: date(account.verified_at),
        firstVerifiedAt: date(account.first_verified_at),
        latestVerifiedAt: date(account.latest_verified_at),
      }
    case 'guest':
      return {
        type: 'guest',
        verifiedAt: date(account.verified_at),
        firstVerifiedAt: date(account.first_verified_at),
        latestVerifiedAt: date(account.latest_verified_at),
      }
  }
}

/** Maps the wire user (snake_case) to the client's `User`. */
export function toUser(wire: UserWire): User {
  const linkedAccounts = wire.linked_accounts.map(toLinkedAccount)
  const email = linkedAccounts.find((a): a is EmailAccount => a.type === 'email')
  const phone = linkedAccounts.find((a): a is PhoneAccount => a.type === 'phone')
  const wallet = linkedAccounts.find(
    (a): a is EmbeddedWalletAccount =>
      a.type === 'wallet' && a.chainType === 'ethereum' && a.walletIndex === 0,
  )
  return {
    id: wire.id,
    createdAt: date(wire.created_at),
    linkedAccounts,
    ...(email ? { email: { address: email.address } } : {}),
    ...(phone ? { phone: { number: phone.number } } : {}),
    ...(wallet ? { wallet: { address: wallet.address, chainType: wallet.chainType } } : {}),
    mfaMethods: [...wire.mfa_methods],
    hasAcceptedTerms: wire.has_accepted_terms,
    isGuest: wire.is_guest,
  }
}
