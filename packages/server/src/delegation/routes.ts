import {
  delegatedActionsResponseSchema,
  delegateWalletRequestSchema,
  delegationKeyResponseSchema,
  keyActivityQuerySchema,
  revokeDelegationRequestSchema,
  routes,
  userSchema,
  walletRpcRequestSchema,
  walletRpcResponseSchema,
} from '@latchkey/protocol'
import { limited } from '../errors.ts'
import { defineRoute, type RouteDefinition } from '../http/route.ts'
import { limitWalletKeyRequests } from '../wallets/limit-wallet-key-requests.ts'
import { listDelegatedActions } from './audit.ts'
import { delegationKeyResponse } from './key.ts'
import { walletRpc } from './rpc.ts'
import { delegateWallet, revokeDelegations } from './service.ts'

// Delegated actions (docs/delegated-actions.md). Delegating hands key
// material to the server, so it is an enclave route with a fresh MFA
// verification (like export); revoking only deletes, so the host may call it
// with the user's token. The RPC answers app backends only (`auth: 'app'`).

/** Delegated RPC requests one app may make per window (all its wallets together). */
export const WALLET_RPC_PER_APP = { limit: 600, windowMs: 60_000 } as const

export const delegationKeyRoute = defineRoute({
  method: 'get',
  path: routes.embeddedWalletsDelegationKey,
  summary: "The server's P-256 delegation key, which the enclave seals a delegated device share to",
  tags: ['embedded-wallets'],
  auth: 'none',
  response: delegationKeyResponseSchema,
  handler: async ({ services }) => delegationKeyResponse(services),
})

export const delegateRoute = defineRoute({
  method: 'post',
  path: routes.embeddedWalletsDelegate,
  summary: "Delegate one of the signed-in user's embedded wallets to the app's backend",
  tags: ['embedded-wallets'],
  auth: 'enclave',
  mfa: true,
  body: delegateWalletRequestSchema,
  response: userSchema,
  handler: async ({ c, services, auth, body }) => {
    await limitWalletKeyRequests(c, services)
    return delegateWallet(services, auth, body)
  },
})

export const revokeRoute = defineRoute({
  method: 'post',
  path: routes.embeddedWalletsRevoke,
  summary: 'Revoke every delegated wallet of the signed-in user in this app (empty body)',
  tags: ['embedded-wallets'],
  auth: 'user',
  body: revokeDelegationRequestSchema,
  response: userSchema,
  handler: async ({ services, auth }) => revokeDelegations(services, auth),
})

export const delegatedActionsRoute = defineRoute({
  method: 'get',
  path: routes.embeddedWalletsDelegatedActions,
  summary:
    "The signed-in user's delegated actions (server-side signatures, refused too), newest first",
  tags: ['embedded-wallets'],
  auth: 'user',
  query: keyActivityQuerySchema,
  response: delegatedActionsResponseSchema,
  handler: async ({ services, auth, query }) =>
    listDelegatedActions(services.db, {
      appId: auth.appId,
      userId: auth.userId,
      limit: query.limit,
      cursor: query.cursor,
    }),
})

export const walletRpcRoute = defineRoute({
  method: 'post',
  path: routes.walletRpc(':wallet_id'),
  summary: 'Sign or send with a delegated wallet of one of the app’s users (app secret)',
  tags: ['app backend'],
  auth: 'app',
  body: walletRpcRequestSchema,
  response: walletRpcResponseSchema,
  handler: async ({ c, services, app, body }) => {
    const { limit, windowMs } = WALLET_RPC_PER_APP
    const counted = await services.limiter.hit(`wallet-rpc:${app.id}`, limit, windowMs)
    if (!counted.allowed) throw limited('TOO_MANY_REQUESTS', counted.resetAt, services.now())
    return walletRpc(services, app.id, c.req.param('wallet_id') ?? '', body)
  },
})

export const delegationRoutes: RouteDefinition[] = [
  delegationKeyRoute,
  delegateRoute,
  revokeRoute,
  delegatedActionsRoute,
]

/** Registered with the app-backend routes. */
export const delegationAppRoutes: RouteDefinition[] = [walletRpcRoute]
