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
      if (account.connector_type !== 'embedded')
        return {
          type: 'wallet',
          address: account.address,
          chainType: account.chain_type,
          chainId: account.chain_id,
          walletIndex: null,
          walletClientType: account.wallet_client_type,
          connectorType: account.connector_type,
          imported: false,
          delegated: false,
          verifiedAt: date(account.verified_at),
          firstVerifiedAt: date(account.first_verified_at),
          latestVerifiedAt: date(account.latest_verified_at),
        }
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
    case 'farcaster':
      return {
        type: 'farcaster',
        fid: account.fid,
        ownerAddress: account.owner_address,
        username: account.username,
        displayName: account.display_name,
        bio: account.bio,
        pfp: account.profile_picture_url,
        signerPublicKey: account.signer_public_key,
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
    case 'passkey':
      return {
        type: 'passkey',
        credentialId: account.credential_id,
        authenticatorName: account.authenticator_name,
        createdWithBrowser: account.created_with_browser,
        createdWithOs: account.created_with_os,
        createdWithDevice: account.created_with_device,
        enrolledInMfa: account.enrolled_in_mfa,
        verifiedAt: date(account.verified_at),
        firstVerifiedAt: date(account.first_verified_at),
        latestVerifiedAt: date(account.latest_verified_at),
      }
    case 'cross_app':
      return {
        type: 'cross_app',
        subject: account.subject,
        providerApp: { id: account.provider_app.id },
        embeddedWallets: account.embedded_wallets.map((w) => ({
          address: w.address,
          chainType: w.chain_type,
        })),
        smartWallets: account.smart_wallets.map((w) => ({ address: w.address })),
        verifiedAt: date(account.verified_at),
        firstVerifiedAt: date(account.first_verified_at),
        latestVerifiedAt: date(account.latest_verified_at),
      }
    case 'smart_wallet':
      return {
        type: 'smart_wallet',
        address: account.address,
        smartWalletType: account.smart_wallet_type,
        smartWalletVersion: account.smart_wallet_version,
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
