import { createSolanaRpc, type Rpc, type SolanaRpcApi } from '@solana/kit'

/** The Solana JSON-RPC client the transaction operations take: @solana/kit's, full API. */
export type SolanaClient = Rpc<SolanaRpcApi>

/**
 * A Solana JSON-RPC client for `rpcUrl` (spec 03 §7 "Chain RPC": balances,
 * blockhash, fees, send, confirm, read the transaction), built with
 * @solana/kit's `createSolanaRpc`. u64 values come back as `bigint`.
 *
 * @example
 * const rpc = createSolanaClient('https://api.devnet.solana.com')
 * const { value: lamports } = await rpc.getBalance(address(wallet)).send()
 */
export function createSolanaClient(rpcUrl: string): SolanaClient {
  return createSolanaRpc(rpcUrl)
}
