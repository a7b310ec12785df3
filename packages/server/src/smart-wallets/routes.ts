import { routes } from '@latchkey/protocol'
import { limited } from '../errors.ts'
import { defineRoute, type RouteDefinition } from '../http/route.ts'
import { smartWalletRpc, smartWalletRpcRequestSchema, smartWalletRpcResponseSchema } from './rpc.ts'

// Smart wallets (issue 24, docs/smart-wallets.md "The RPC route"): the
// bundler and paymaster of the user's smart wallet, behind the user's access
// token. The smart_wallet link route is smart-wallets/link*.ts.

/** RPC requests one user may make per window (receipt polling included). */
export const SMART_WALLET_RPC_PER_USER = { limit: 1200, windowMs: 60_000 } as const

export const smartWalletRpcRoute = defineRoute({
  method: 'post',
  path: routes.smartWalletRpc(':chain_id' as unknown as number),
  summary:
    "The signed-in user's smart wallet on one chain: ERC-4337 bundler methods (relayed) and ERC-7677 pm_* (the app's paymaster), one JSON-RPC request",
  tags: ['smart-wallets'],
  auth: 'user',
  body: smartWalletRpcRequestSchema,
  response: smartWalletRpcResponseSchema,
  handler: async ({ c, services, app, auth, body }) => {
    const { limit, windowMs } = SMART_WALLET_RPC_PER_USER
    const counted = await services.limiter.hit(
      `smart-wallet-rpc:${app.id}:${auth.userId}`,
      limit,
      windowMs,
    )
    if (!counted.allowed) throw limited('TOO_MANY_REQUESTS', counted.resetAt, services.now())
    return smartWalletRpc(services, app, auth, c.req.param('chain_id') ?? '', body)
  },
})

export const smartWalletRoutes: RouteDefinition[] = [smartWalletRpcRoute]
