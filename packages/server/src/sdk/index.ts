/**
 * @module
 * The server SDK for app backends (`@latchkey/server/sdk`): typed calls of
 * the app-secret API (users, wallets), access-token verification with the
 * server's keys, and webhook verification. It loads no database driver, so
 * a backend that only talks to a Latchkey server imports little.
 *
 * @example
 * import { createLatchkeyServerClient, verifyWebhook } from '@latchkey/server/sdk'
 * const latchkey = createLatchkeyServerClient({ url, appId, appSecret })
 * const user = await latchkey.getUserByEmail('ada@example.com')
 */

export type {
  AccessTokenClaims,
  AppWallet,
  ListUsersResponse,
  UserWire,
  WalletRpcRequest,
  WalletRpcResponse,
} from '@latchkey/protocol'
export {
  type VerifyWebhookOptions,
  verifyWebhook,
  type WebhookHeaders,
  WebhookVerificationError,
  type WebhookVerificationErrorCode,
} from '../webhooks/verify.ts'
export {
  createLatchkeyServerClient,
  type LatchkeyServerClient,
  type LatchkeyServerClientOptions,
  type VerifyTokenOptions,
} from './client.ts'
export { type ClientErrorCode, LatchkeyApiError } from './errors.ts'
export type { DelegatedTransactionInput, DelegatedWallets } from './wallets.ts'
