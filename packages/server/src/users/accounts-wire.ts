import {
  CONNECTOR_TYPES,
  type ConnectorType,
  type LinkedAccountWire,
  type RecoveryMethod,
  SMART_WALLET_TYPES,
  type SmartWalletType,
} from '@latchkey/protocol'
import type { Selectable } from 'kysely'
import type { LinkedAccountsTable } from '../db/types.ts'

// The linked-account types and their wire shapes (users/service.ts reads and
// writes the rows).

const seconds = (ms: number) => Math.floor(Number(ms) / 1000)

/** Linked-account type of an embedded wallet (identifier = canonical address). */
export const WALLET_ACCOUNT_TYPE = 'wallet'

/** Linked-account type of an external Ethereum wallet (SIWE); identifier = lowercase address. */
export const SIWE_ACCOUNT_TYPE = 'siwe'

/** Linked-account type of an external Solana wallet (SIWS); identifier = base58 address. */
export const SIWS_ACCOUNT_TYPE = 'siws'

/** Linked-account type of a Farcaster account; identifier = the fid in decimal. */
export const FARCASTER_ACCOUNT_TYPE = 'farcaster'

/**
 * Linked-account type of a passkey (auth/passkey); identifier = the base64url
 * WebAuthn credential id, data = public key, counter and display names.
 */
export const PASSKEY_ACCOUNT_TYPE = 'passkey'

/** Linked-account type of a guest (identifier = SHA-256 of the guest credential). */
export const GUEST_ACCOUNT_TYPE = 'guest'

/**
 * Linked-account type of the user's smart wallet (smart-wallets/link.ts);
 * identifier = lowercase address, data = checksummed address, type, version.
 * Not a login method: nothing logs in with it.
 */
export const SMART_WALLET_ACCOUNT_TYPE = 'smart_wallet'

/**
 * Whether an account of this type logs its user in: embedded wallets and
 * smart wallets do not (spec 01 §5), so they neither keep a user from being
 * locked out nor turn a guest into a full user.
 */
export const isLoginMethodType = (type: string): boolean =>
  type !== WALLET_ACCOUNT_TYPE && type !== SMART_WALLET_ACCOUNT_TYPE

/** Recovery method by stored entropy id (wallet_secrets.entropy_id). */
export type RecoveryMethods = ReadonlyMap<string, RecoveryMethod>

/**
 * One stored linked account as it travels on the wire; null for a type this
 * server version has no wire shape for (rows written by a newer version), and
 * for a wallet whose secret row is missing (a wallet without its shares is
 * never shown).
 */
export function toLinkedAccountWire(
  row: Selectable<LinkedAccountsTable>,
  recoveryMethods: RecoveryMethods = new Map(),
): LinkedAccountWire | null {
  const data = JSON.parse(row.data) as Record<string, unknown>
  switch (row.type) {
    case WALLET_ACCOUNT_TYPE: {
      const secretId = typeof data.secret_id === 'string' ? data.secret_id : ''
      const recovery = recoveryMethods.get(secretId)
      if (!recovery || (data.chain_type !== 'ethereum' && data.chain_type !== 'solana')) return null
      return {
        type: 'wallet',
        address: typeof data.address === 'string' ? data.address : row.identifier,
        chain_type: data.chain_type,
        wallet_index: typeof data.wallet_index === 'number' ? data.wallet_index : null,
        wallet_client_type: 'latchkey',
        connector_type: 'embedded',
        imported: data.imported === true,
        delegated: data.delegated === true,
        recovery_method: recovery,
        entropy_id: typeof data.entropy_id === 'string' ? data.entropy_id : secretId,
        verified_at: seconds(row.latest_verified_at),
        first_verified_at: seconds(row.first_verified_at),
        latest_verified_at: seconds(row.latest_verified_at),
      }
    }
    case SIWE_ACCOUNT_TYPE:
    case SIWS_ACCOUNT_TYPE: {
      // External wallets (auth/siwe, auth/siws): identifier = canonical address.
      const text = (key: string) => (typeof data[key] === 'string' ? (data[key] as string) : null)
      const connector = text('connector_type')
      return {
        type: 'wallet',
        address: text('address') ?? row.identifier,
        chain_type: row.type === SIWE_ACCOUNT_TYPE ? 'ethereum' : 'solana',
        chain_id: text('chain_id'),
        wallet_client_type: text('wallet_client_type') ?? 'unknown',
        connector_type:
          connector && (CONNECTOR_TYPES as readonly string[]).includes(connector)
            ? (connector as ConnectorType)
            : 'injected',
        wallet_index: null,
        imported: false,
        delegated: false,
        verified_at: seconds(row.latest_verified_at),
        first_verified_at: seconds(row.first_verified_at),
        latest_verified_at: seconds(row.latest_verified_at),
      }
    }
    case FARCASTER_ACCOUNT_TYPE: {
      // auth/farcaster: identifier = the fid in decimal.
      const text = (key: string) => (typeof data[key] === 'string' ? (data[key] as string) : null)
      return {
        type: 'farcaster',
        fid: Number(row.identifier),
        owner_address: text('owner_address') ?? '',
        username: text('username'),
        display_name: text('display_name'),
        bio: text('bio'),
        profile_picture_url: text('pfp_url'),
        signer_public_key: text('signer_public_key'),
        verified_at: seconds(row.latest_verified_at),
        first_verified_at: seconds(row.first_verified_at),
        latest_verified_at: seconds(row.latest_verified_at),
      }
    }
    case PASSKEY_ACCOUNT_TYPE: {
      // auth/passkey: the public key and counter stay on the server.
      const text = (key: string) => (typeof data[key] === 'string' ? (data[key] as string) : null)
      return {
        type: 'passkey',
        credential_id: row.identifier,
        authenticator_name: text('authenticator_name'),
        created_with_browser: text('created_with_browser'),
        created_with_os: text('created_with_os'),
        created_with_device: text('created_with_device'),
        enrolled_in_mfa: data.enrolled_in_mfa === true,
        verified_at: seconds(row.latest_verified_at),
        first_verified_at: seconds(row.first_verified_at),
        latest_verified_at: seconds(row.latest_verified_at),
      }
    }
    case SMART_WALLET_ACCOUNT_TYPE: {
      const type = data.smart_wallet_type as SmartWalletType
      if (!SMART_WALLET_TYPES.includes(type)) return null
      return {
        type: 'smart_wallet',
        address: typeof data.address === 'string' ? data.address : row.identifier,
        smart_wallet_type: type,
        smart_wallet_version:
          typeof data.smart_wallet_version === 'string' ? data.smart_wallet_version : '',
        verified_at: seconds(row.latest_verified_at),
        first_verified_at: seconds(row.first_verified_at),
        latest_verified_at: seconds(row.latest_verified_at),
      }
    }
    case 'email':
      return {
        type: 'email',
        address: typeof data.address === 'string' ? data.address : row.identifier,
        verified_at: seconds(row.latest_verified_at),
        first_verified_at: seconds(row.first_verified_at),
        latest_verified_at: seconds(row.latest_verified_at),
      }
    case 'phone':
      return {
        type: 'phone',
        number: typeof data.number === 'string' ? data.number : row.identifier,
        verified_at: seconds(row.latest_verified_at),
        first_verified_at: seconds(row.first_verified_at),
        latest_verified_at: seconds(row.latest_verified_at),
      }
    case 'telegram': {
      const text = (key: string) => (typeof data[key] === 'string' ? (data[key] as string) : null)
      return {
        type: 'telegram',
        telegram_user_id: row.identifier,
        first_name: text('first_name'),
        last_name: text('last_name'),
        username: text('username'),
        photo_url: text('photo_url'),
        verified_at: seconds(row.latest_verified_at),
        first_verified_at: seconds(row.first_verified_at),
        latest_verified_at: seconds(row.latest_verified_at),
      }
    }
    case 'custom':
      return {
        type: 'custom',
        custom_user_id: row.identifier,
        verified_at: seconds(row.latest_verified_at),
        first_verified_at: seconds(row.first_verified_at),
        latest_verified_at: seconds(row.latest_verified_at),
      }
    case 'guest':
      return {
        type: 'guest',
        verified_at: seconds(row.latest_verified_at),
        first_verified_at: seconds(row.first_verified_at),
        latest_verified_at: seconds(row.latest_verified_at),
      }
    case 'google':
    case 'apple':
    case 'discord':
    case 'github':
    case 'linkedin':
    case 'spotify':
    case 'instagram':
    case 'twitter':
    case 'tiktok':
    case 'line': {
      // OAuth login (auth/oauth): identifier = the provider's subject.
      const text = (key: string) => (typeof data[key] === 'string' ? (data[key] as string) : null)
      return {
        type: row.type,
        subject: row.identifier,
        email: text('email'),
        name: text('name'),
        username: text('username'),
        profile_picture_url: text('picture'),
        verified_at: seconds(row.latest_verified_at),
        first_verified_at: seconds(row.first_verified_at),
        latest_verified_at: seconds(row.latest_verified_at),
      }
    }
    case 'cross_app': {
      // auth/cross-app: identifier = the provider app's user id.
      const wallets = Array.isArray(data.embedded_wallets) ? data.embedded_wallets : []
      const smartWallets = Array.isArray(data.smart_wallets) ? data.smart_wallets : []
      return {
        type: 'cross_app',
        subject: row.identifier,
        provider_app: { id: typeof data.provider_app_id === 'string' ? data.provider_app_id : '' },
        embedded_wallets: (wallets as { address: string; chain_type: 'ethereum' | 'solana' }[]).map(
          (w) => ({ address: w.address, chain_type: w.chain_type }),
        ),
        smart_wallets: (smartWallets as { address: string }[]).map((w) => ({ address: w.address })),
        verified_at: seconds(row.latest_verified_at),
        first_verified_at: seconds(row.first_verified_at),
        latest_verified_at: seconds(row.latest_verified_at),
      }
    }
    default:
      return null
  }
}
