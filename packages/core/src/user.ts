import type { LinkedAccountWire, UserWire } from '@latchkey/protocol/schemas'

export interface EmailAccount {
  type: 'email'
  address: string
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

/** An account linked to a user; a union on `type`, grown by each login method. */
export type LinkedAccount = EmailAccount | EmbeddedWalletAccount

/** A Latchkey user as apps see it (spec 01 §3 "User"). */
export interface User {
  id: string
  createdAt: Date
  linkedAccounts: LinkedAccount[]
  email?: { address: string }
  /** The first embedded Ethereum wallet, if any. */
  wallet?: { address: string; chainType: 'ethereum' | 'solana' }
  mfaMethods: Array<'sms' | 'totp' | 'passkey'>
  hasAcceptedTerms: boolean
  isGuest: boolean
}

const date = (seconds: number) => new Date(seconds * 1000)

function toLinkedAccount(account: LinkedAccountWire): LinkedAccount {
  switch (account.type) {
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
  }
}

/** Maps the wire user (snake_case) to the client's `User`. */
export function toUser(wire: UserWire): User {
  const linkedAccounts = wire.linked_accounts.map(toLinkedAccount)
  const email = linkedAccounts.find((a): a is EmailAccount => a.type === 'email')
  const wallet = linkedAccounts.find(
    (a): a is EmbeddedWalletAccount =>
      a.type === 'wallet' && a.chainType === 'ethereum' && a.walletIndex === 0,
  )
  return {
    id: wire.id,
    createdAt: date(wire.created_at),
    linkedAccounts,
    ...(email ? { email: { address: email.address } } : {}),
    ...(wallet ? { wallet: { address: wallet.address, chainType: wallet.chainType } } : {}),
    mfaMethods: [...wire.mfa_methods],
    hasAcceptedTerms: wire.has_accepted_terms,
    isGuest: wire.is_guest,
  }
}
