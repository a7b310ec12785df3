import { routes } from '@latchkey/protocol/routes'
import { type CustomTransport, custom, RpcRequestError } from 'viem'
import type { LatchkeyClient } from '../client.ts'

/** A JSON-RPC 2.0 answer of the smart-wallet rpc route. */
interface RpcAnswer {
  jsonrpc: '2.0'
  id: number | string | null
  result?: unknown
  error?: { code: number; message: string; data?: unknown }
}

/**
 * The bundler and paymaster of one chain, as the app's Latchkey server relays
 * them (`POST routes.smartWalletRpc(chainId)`, docs/smart-wallets.md): each
 * JSON-RPC request goes through the client's HTTP layer as the logged-in
 * user, so a token refreshed meanwhile is the one sent, and the bundler's and
 * paymaster's URLs never reach the browser. A JSON-RPC error answer is thrown
 * as viem's `RpcRequestError` (its `code` and message, e.g. an `AA…` reason).
 *
 * @example
 * const bundlerClient = createBundlerClient({ account, client: publicClient, transport: smartWalletRpcTransport(client, 8453) })
 */
export function smartWalletRpcTransport(client: LatchkeyClient, chainId: number): CustomTransport {
  const path = routes.smartWalletRpc(chainId)
  let id = 0
  return custom(
    {
      async request({ method, params }) {
        const body = { jsonrpc: '2.0', id: ++id, method, params: params ?? [] }
        const answer = await client.authedRequest<RpcAnswer>(path, body)
        if (answer.error)
          throw new RpcRequestError({ body, error: answer.error, url: `${client.apiUrl}${path}` })
        // A bundler's null (no receipt yet) may arrive as an absent result.
        return answer.result ?? null
      },
    },
    // A rejected user operation is not retried: the bundler said why.
    { retryCount: 0 },
  )
}
