import { type Chain, createPublicClient, http, type PublicClient } from 'viem'
import { LatchkeyError } from '../../errors.ts'

const clients = new WeakMap<Chain, PublicClient>()

/**
 * The JSON-RPC client of one of the app's chains (its first `rpcUrls.default`
 * URL), made once per chain object: every confirm screen and provider of the
 * page shares it, and with it viem's request batching and caching.
 *
 * @example
 * const client = chainClient(sepolia)
 */
export function chainClient(chain: Chain): PublicClient {
  let client = clients.get(chain)
  if (!client) {
    client = createPublicClient({ chain, transport: http() }) as PublicClient
    clients.set(chain, client)
  }
  return client
}

/**
 * The app's chain with this id; a transaction for a chain the app did not
 * configure is refused before anything is signed (spec 03 §5: 'Chain ID {id}
 * is not supported...'), with UNSUPPORTED_CHAIN and `details: { id }`.
 *
 * @example
 * const chain = findChain(config.chains, 31337)
 */
export function findChain(chains: readonly Chain[], id: number): Chain {
  const chain = chains.find((c) => c.id === id)
  if (!chain)
    throw new LatchkeyError('UNSUPPORTED_CHAIN', `Chain ID ${id} is not supported by this app.`, {
      details: { id },
    })
  return chain
}
