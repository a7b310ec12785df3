import { type Address, type Chain, type Client, createClient, http, type Transport } from 'viem'
import { getBalance } from 'viem/actions'
import { LatchkeyError } from '../../errors.ts'

/**
 * A chain's JSON-RPC client without viem's bound actions: callers import the
 * actions they use from `viem/actions`, so a page keeps only those (a
 * `createPublicClient` keeps every public action, about 25 KB gzip).
 */
export type ChainClient = Client<Transport, Chain | undefined, undefined>

const clients = new WeakMap<Chain, ChainClient>()

/**
 * The JSON-RPC client of one of the app's chains (its first `rpcUrls.default`
 * URL), made once per chain object: every confirm screen and provider of the
 * page shares it, and with it viem's request batching and caching.
 *
 * @example
 * const client = chainClient(sepolia)
 */
export function chainClient(chain: Chain): ChainClient {
  let client = clients.get(chain)
  if (!client) {
    client = createClient({ chain, transport: http() })
    clients.set(chain, client)
  }
  return client
}

/**
 * The native balance of `address` on `chain`, in wei, through the chain's
 * shared client (for code that loads viem's actions lazily).
 *
 * @example
 * const wei = await nativeBalance(sepolia, '0x…')
 */
export const nativeBalance = (chain: Chain, address: Address): Promise<bigint> =>
  getBalance(chainClient(chain), { address })

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
