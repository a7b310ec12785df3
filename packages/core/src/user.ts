import type { LinkedAccountWire, UserWire } from '@latchkey/protocol/schemas'

export interface EmailAccount {
  type: 'email'
  address: string
  verifiedAt: Date
  firstVerifiedAt: Date
  latestVerifiedAt: Date
}

/** An account linked to a user; a union on `type`, grown by each login method. */
export type LinkedAccount = EmailAccount

/** A Latchkey user as apps see it (spec 01 §3 "User"). */
export interface User {
  id: string
  createdAt: Date
  linkedAccounts: LinkedAccount[]
  email?: { address: string }
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
  }
}

/** Maps the wire user (snake_case) to the client's `User`. */
export function toUser(wire: UserWire): User {
  const linkedAccounts = wire.linked_accounts.map(toLinkedAccount)
  const email = linkedAccounts.find((a): a is EmailAccount => a.type === 'email')
  return {
    id: wire.id,
    createdAt: date(wire.created_at),
    linkedAccounts,
    ...(email ? { email: { address: email.address } } : {}),
    mfaMethods: [...wire.mfa_methods],
    hasAcceptedTerms: wire.has_accepted_terms,
    isGuest: wire.is_guest,
  }
}
