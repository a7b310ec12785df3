import { OAUTH_PROVIDERS } from '@latchkey/protocol/constants'
import { routes } from '@latchkey/protocol/routes'
import type {
  AccountTransferOffer,
  AccountTransferRequest,
  UserWire,
} from '@latchkey/protocol/schemas'
import type { LatchkeyClient } from '../client.ts'
import { LatchkeyError } from '../errors.ts'
import { toUser, type User } from '../user.ts'

/**
 * The account the link call was about, as the transfer call names it: the
 * method's identifier fields of `AccountTransferRequest` (spec 02 §7), e.g.
 * `{ email }`, `{ phoneNumber }`, `{ address, walletClientType,
 * connectorType, chainId }`, `{ provider, subject }`, `{ farcaster_id }`,
 * `{ telegram_user_id }`.
 */
export type AccountTransferInput = Omit<AccountTransferRequest, 'nonce' | 'accountType'>

export type TransferAccountParameters = {
  offer: AccountTransferOffer
  account: AccountTransferInput
}

export type TransferAccountReturnType = User

export type TransferAccountErrorType = LatchkeyError

// Spec 02 §5: custom, guest and passkey accounts never move; embedded wallets are not login methods.
const NOT_TRANSFERABLE = new Set(['custom', 'custom_auth', 'guest', 'passkey', 'wallet'])

const isOAuthProvider = (type: string) => (OAUTH_PROVIDERS as readonly string[]).includes(type)

type Field = keyof AccountTransferInput

/** Each account type's transfer route and the identifier fields it cannot do without. */
const ROUTES: Record<string, { path: string; required: Field[] }> = {
  email: { path: routes.emailTransfer, required: ['email'] },
  phone: { path: routes.smsTransfer, required: ['phoneNumber'] },
  // Spec 02 §5: a siwe transfer needs the wallet metadata.
  siwe: {
    path: routes.siweTransfer,
    required: ['address', 'walletClientType', 'connectorType', 'chainId'],
  },
  siws: { path: routes.siwsTransfer, required: ['address'] },
  farcaster: { path: routes.farcasterTransfer, required: ['farcaster_id'] },
  telegram: { path: routes.telegramTransfer, required: ['telegram_user_id'] },
}
const OAUTH_ROUTE = { path: routes.oauthTransfer, required: ['provider', 'subject'] as Field[] }

const routeFor = (type: string) => ROUTES[type] ?? (isOAuthProvider(type) ? OAUTH_ROUTE : null)

/** The request body: the identifier, with an OAuth account's provider and subject taken from the offer. */
const bodyFor = (
  offer: AccountTransferOffer,
  account: AccountTransferInput,
): AccountTransferInput => ({
  ...account,
  ...(isOAuthProvider(offer.account.type)
    ? {
        provider: account.provider ?? offer.account.type,
        subject: account.subject ?? offer.account.subject,
      }
    : {}),
})

/**
 * Whether `transferAccount` has what it needs for this offer: a nonce, an
 * account type that transfers, and the identifier its route reads. A modal
 * that cannot name the account (an OAuth link does not learn the provider's
 * identifier) shows the plain refusal instead of offering a transfer it cannot do.
 */
export function canTransferAccount(
  offer: AccountTransferOffer,
  account: AccountTransferInput,
): boolean {
  const type = offer.account.type
  const route = routeFor(type)
  if (!offer.nonce || !route || NOT_TRANSFERABLE.has(type)) return false
  const body = bodyFor(offer, account)
  return route.required.every((field) => body[field] !== undefined && body[field] !== '')
}

/**
 * Moves the login method of an ACCOUNT_TRANSFER_REQUIRED answer from the
 * other user to the logged-in one, deleting the other user (spec 02 "Account
 * transfer"). The route follows `offer.account.type`; the body is the offer's
 * nonce plus the account's identifier. Throws TRANSFER_INPUTS_MISSING ('missing
 * account transfer inputs') without calling the server when the nonce or an
 * identifier the route needs is missing, TRANSFER_NOT_ALLOWED for custom,
 * guest and passkey accounts. Updates the session's user.
 *
 * @example
 * try { await linkPhone(client, { phoneNumber, code }) } catch (error) {
 *   const offer = accountTransferOffer(error)
 *   if (offer) await transferAccount(client, { offer, account: { phoneNumber } })
 * }
 */
export async function transferAccount(
  client: LatchkeyClient,
  { offer, account }: TransferAccountParameters,
): Promise<TransferAccountReturnType> {
  const type = offer?.account?.type
  if (!offer?.nonce || !type) throw new LatchkeyError('TRANSFER_INPUTS_MISSING')
  const route = routeFor(type)
  if (NOT_TRANSFERABLE.has(type) || !route) throw new LatchkeyError('TRANSFER_NOT_ALLOWED')
  const body = bodyFor(offer, account)
  if (!canTransferAccount(offer, account)) throw new LatchkeyError('TRANSFER_INPUTS_MISSING')
  const wire = await client.authedRequest<UserWire>(route.path, {
    ...body,
    nonce: offer.nonce,
    accountType: type,
  })
  const user = toUser(wire)
  client.session.setUser(user)
  return user
}

/**
 * The transfer offer an ACCOUNT_TRANSFER_REQUIRED error carries in `details`,
 * or null for any other error (or a malformed offer).
 */
export function accountTransferOffer(error: unknown): AccountTransferOffer | null {
  if (!(error instanceof LatchkeyError) || error.code !== 'ACCOUNT_TRANSFER_REQUIRED') return null
  const offer = error.details as Partial<AccountTransferOffer> | null | undefined
  if (
    typeof offer?.nonce !== 'string' ||
    typeof offer.account?.type !== 'string' ||
    typeof offer.account.display_name !== 'string'
  )
    return null
  return {
    nonce: offer.nonce,
    account: {
      type: offer.account.type,
      display_name: offer.account.display_name,
      ...(typeof offer.account.subject === 'string' ? { subject: offer.account.subject } : {}),
    },
    other_user: {
      embedded_wallet_address: offer.other_user?.embedded_wallet_address ?? null,
      embedded_wallet_chain_type: offer.other_user?.embedded_wallet_chain_type ?? null,
    },
  }
}
