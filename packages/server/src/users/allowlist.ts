import {
  type AllowlistEntry,
  normalizeEmail,
  normalizeWalletName,
  OAUTH_PROVIDERS,
} from '@latchkey/protocol'
import type { AppSettings } from '../apps/settings.ts'
import { ApiError } from '../errors.ts'
import { SIWE_ACCOUNT_TYPE, SIWS_ACCOUNT_TYPE, WALLET_ACCOUNT_TYPE } from './accounts-wire.ts'

/*
 * The app's allowlist (docs/access-control.md "Allowlist"): when enabled,
 * a login passes only if one of the user's linked accounts matches an entry.
 * Spec 01 §5 / 02 §5 give the wallet-name rule; the rest is our design.
 */

/** A linked account as the allowlist sees it (a stored row or one about to be). */
export interface AllowlistAccount {
  type: string
  identifier: string
  /** The row's JSON data, parsed or not. */
  data: string | Record<string, unknown>
}

const OAUTH_TYPES: ReadonlySet<string> = new Set(OAUTH_PROVIDERS)

/** Re-exported for the allowlist's callers and tests (the rule lives in protocol). */
export { normalizeWalletName }

/**
 * Coinbase listings are excluded from wallet-name allowlisting (spec 01 §5):
 * `coinbase_wallet`, `Coinbase Wallet`, `coinbase-smart-wallet` never match.
 */
export function isCoinbaseWalletName(name: string): boolean {
  return normalizeWalletName(name).startsWith('coinbase')
}

/** `example.com` from `Example.com`, `@example.com` or ` example.com `. */
const normalizeDomain = (value: string) => value.trim().replace(/^@/, '').toLowerCase()

/** `+14155550100` from `+1 (415) 555-0100`: digits only, as phone accounts are keyed. */
const normalizePhone = (value: string) => `+${value.replace(/\D+/g, '')}`

const domainOf = (email: string) => email.slice(email.lastIndexOf('@') + 1).toLowerCase()

const isEvmAddress = (value: string) => /^0x[0-9a-fA-F]{40}$/.test(value)

/** What an account offers to match: emails, phone, wallet addresses, wallet name. */
function facetsOf(account: AllowlistAccount): {
  emails: string[]
  phone: string | null
  wallets: Array<{ address: string; evm: boolean }>
  walletName: string | null
} {
  const data =
    typeof account.data === 'string'
      ? (JSON.parse(account.data) as Record<string, unknown>)
      : account.data
  const text = (key: string) => (typeof data[key] === 'string' ? (data[key] as string) : null)
  const facets = {
    emails: [] as string[],
    phone: null as string | null,
    wallets: [] as Array<{ address: string; evm: boolean }>,
    walletName: null as string | null,
  }
  if (account.type === 'email') facets.emails.push(normalizeEmail(account.identifier))
  else if (account.type === 'phone') facets.phone = normalizePhone(account.identifier)
  else if (OAUTH_TYPES.has(account.type)) {
    // auth/oauth stores a provider email only when the provider says it is verified.
    const email = text('email')
    if (email) facets.emails.push(normalizeEmail(email))
  } else if (account.type === SIWE_ACCOUNT_TYPE || account.type === SIWS_ACCOUNT_TYPE) {
    facets.wallets.push({ address: account.identifier, evm: account.type === SIWE_ACCOUNT_TYPE })
    const name = text('wallet_client_type')
    if (name && !isCoinbaseWalletName(name)) facets.walletName = normalizeWalletName(name)
  } else if (account.type === WALLET_ACCOUNT_TYPE) {
    // An existing user's embedded wallet: nobody else can hold its address.
    const address = text('address') ?? account.identifier
    facets.wallets.push({ address, evm: text('chain_type') === 'ethereum' })
  }
  // Guests, custom JWT, passkeys, Telegram and Farcaster offer nothing to match.
  return facets
}

/** True when `account` matches `entry` (rules in docs/access-control.md). */
export function accountMatchesEntry(account: AllowlistAccount, entry: AllowlistEntry): boolean {
  const facets = facetsOf(account)
  switch (entry.type) {
    case 'email':
      return facets.emails.includes(normalizeEmail(entry.value))
    case 'email_domain': {
      const domain = normalizeDomain(entry.value)
      return facets.emails.some((email) => domainOf(email) === domain)
    }
    case 'phone':
      return facets.phone !== null && facets.phone === normalizePhone(entry.value)
    case 'wallet_address': {
      const value = entry.value.trim()
      return facets.wallets.some((w) =>
        w.evm
          ? isEvmAddress(value) && w.address.toLowerCase() === value.toLowerCase()
          : w.address === value,
      )
    }
    case 'wallet_name':
      if (isCoinbaseWalletName(entry.value)) return false
      return facets.walletName !== null && facets.walletName === normalizeWalletName(entry.value)
  }
}

/** The entries of an enabled allowlist; null when the app has none switched on (the default). */
export function activeAllowlist(settings: AppSettings): AllowlistEntry[] | null {
  return settings.allowlist?.enabled === true ? (settings.allowlist.entries ?? []) : null
}

/**
 * ALLOWLIST_REJECTED unless the allowlist is off or one of `accounts`
 * matches an entry. An enabled allowlist with no entries lets nobody in.
 *
 * @example
 * assertAllowlisted(app.settings, [{ type: 'email', identifier: 'a@b.co', data: {} }])
 */
export function assertAllowlisted(settings: AppSettings, accounts: AllowlistAccount[]): void {
  const entries = activeAllowlist(settings)
  if (entries === null) return
  if (accounts.some((account) => entries.some((entry) => accountMatchesEntry(account, entry))))
    return
  throw new ApiError('ALLOWLIST_REJECTED')
}
