import {
  type AccountTransferRequest,
  accountTransferRequestSchema,
  type LoginMethodSwitches,
  normalizeEmail,
  OAUTH_PROVIDERS,
  routes,
  userSchema,
} from '@latchkey/protocol'
import { type AppRecord, toAppConfig } from '../apps/service.ts'
import { phoneKey } from '../auth/sms/phone.ts'
import { ApiError } from '../errors.ts'
import { defineRoute } from '../http/route.ts'
import { SIWE_ACCOUNT_TYPE, SIWS_ACCOUNT_TYPE } from './service.ts'
import { NON_TRANSFERABLE_TYPES, transferAccount } from './transfer.ts'

/*
 * POST <method>/transfer (spec 02 §7 "Account transfer"): the nonce of an
 * ACCOUNT_TRANSFER_REQUIRED answer plus the account it was issued for.
 * Validation (spec 02 §5): no nonce or no account → TRANSFER_INPUTS_MISSING
 * ('missing account transfer inputs'); accountType custom, guest or passkey
 * → TRANSFER_NOT_ALLOWED; a siwe transfer without its wallet metadata →
 * TRANSFER_INPUTS_MISSING. docs/access-control.md "Account transfer".
 */

type Body = AccountTransferRequest

/** The account a transfer names: its linked-account type and identifier, or undefined when missing. */
type ReadAccount = (body: Body) => { type: string; identifier: string } | undefined

const missing = () => new ApiError('TRANSFER_INPUTS_MISSING')

const present = (value: string | undefined): value is string =>
  value !== undefined && value.trim() !== ''

function assertMethodEnabled(app: AppRecord, method: keyof LoginMethodSwitches): void {
  if (!toAppConfig(app).login_methods[method]) throw new ApiError('LOGIN_METHOD_NOT_ALLOWED')
}

function transferRoute(options: {
  path: string
  tag: string
  summary: string
  method: (body: Body) => keyof LoginMethodSwitches
  read: ReadAccount
}) {
  return defineRoute({
    method: 'post',
    path: options.path,
    summary: options.summary,
    tags: [options.tag],
    auth: 'user',
    body: accountTransferRequestSchema,
    response: userSchema,
    handler: async ({ services, app, auth, body }) => {
      if (!present(body.nonce)) throw missing()
      const account = options.read(body)
      if (!account) throw missing()
      if (body.accountType !== undefined && NON_TRANSFERABLE_TYPES.has(body.accountType))
        throw new ApiError('TRANSFER_NOT_ALLOWED')
      assertMethodEnabled(app, options.method(body))
      return transferAccount(services, app, auth.userId, { nonce: body.nonce, ...account })
    },
  })
}

export const emailTransferRoute = transferRoute({
  path: routes.emailTransfer,
  tag: 'email',
  summary: 'Move an email from another user (who is deleted) to the signed-in user',
  method: () => 'email',
  read: (b) =>
    present(b.email) ? { type: 'email', identifier: normalizeEmail(b.email) } : undefined,
})

export const smsTransferRoute = transferRoute({
  path: routes.smsTransfer,
  tag: 'sms',
  summary: 'Move a phone number from another user (who is deleted) to the signed-in user',
  method: () => 'sms',
  read: (b) =>
    present(b.phoneNumber) ? { type: 'phone', identifier: phoneKey(b.phoneNumber) } : undefined,
})

export const oauthTransferRoute = transferRoute({
  path: routes.oauthTransfer,
  tag: 'oauth',
  summary: 'Move an OAuth account from another user (who is deleted) to the signed-in user',
  method: (b) => b.provider as keyof LoginMethodSwitches,
  read: (b) => {
    if (!present(b.provider) || !present(b.subject)) return undefined
    if (NON_TRANSFERABLE_TYPES.has(b.provider)) throw new ApiError('TRANSFER_NOT_ALLOWED')
    if (!(OAUTH_PROVIDERS as readonly string[]).includes(b.provider))
      throw new ApiError('INVALID_PAYLOAD', `Unknown OAuth provider: ${b.provider}`)
    return { type: b.provider, identifier: b.subject }
  },
})

export const siweTransferRoute = transferRoute({
  path: routes.siweTransfer,
  tag: 'siwe',
  summary: 'Move an Ethereum wallet from another user (who is deleted) to the signed-in user',
  method: () => 'wallet',
  read: (b) => {
    if (!present(b.address)) return undefined
    // Spec 02 §5: a siwe transfer needs the wallet metadata.
    if (!present(b.walletClientType) || !present(b.connectorType) || !present(b.chainId))
      return undefined
    return { type: SIWE_ACCOUNT_TYPE, identifier: b.address.trim().toLowerCase() }
  },
})

export const siwsTransferRoute = transferRoute({
  path: routes.siwsTransfer,
  tag: 'siws',
  summary: 'Move a Solana wallet from another user (who is deleted) to the signed-in user',
  method: () => 'wallet',
  read: (b) =>
    present(b.address) ? { type: SIWS_ACCOUNT_TYPE, identifier: b.address.trim() } : undefined,
})

export const farcasterTransferRoute = transferRoute({
  path: routes.farcasterTransfer,
  tag: 'farcaster',
  summary: 'Move a Farcaster account from another user (who is deleted) to the signed-in user',
  method: () => 'farcaster',
  read: (b) =>
    b.farcaster_id !== undefined
      ? { type: 'farcaster', identifier: String(b.farcaster_id) }
      : undefined,
})

export const telegramTransferRoute = transferRoute({
  path: routes.telegramTransfer,
  tag: 'telegram',
  summary: 'Move a Telegram account from another user (who is deleted) to the signed-in user',
  method: () => 'telegram',
  read: (b) =>
    present(b.telegram_user_id)
      ? { type: 'telegram', identifier: b.telegram_user_id.trim() }
      : undefined,
})

export const transferRoutes = [
  emailTransferRoute,
  smsTransferRoute,
  oauthTransferRoute,
  siweTransferRoute,
  siwsTransferRoute,
  farcasterTransferRoute,
  telegramTransferRoute,
]
