/**
 * What the test Ethereum wallet (./ethereum.ts) does with the chain, as a
 * real wallet does: `eth_sendTransaction` fills in nonce, gas and fees from
 * its node, signs with the wallet's key and broadcasts
 * (`eth_sendRawTransaction`); the reads a dapp's library sends through the
 * provider (`eth_estimateGas`, `eth_getTransactionCount`, `eth_call`, …) go
 * to that node as they are. The node is the one configured for the chain the
 * wallet is on (`rpcUrls`); a chain without one answers 4901, and a wallet
 * given no node at all leaves these methods unsupported (4200).
 */
import {
  type Address,
  createWalletClient,
  defineChain,
  type Hex,
  http,
  type PrivateKeyAccount,
} from 'viem'

interface RpcErrorShape {
  code: number
  message: string
  data?: unknown
}

/** The envelope ./ethereum.ts returns to the page. */
export interface ChainEnvelope {
  result?: unknown
  error?: RpcErrorShape
}

/** The wallet's state now: the chain it is on, whether the page holds the account. */
export type WalletState = () => { chainId: number; connected: boolean }

/** Asks the "user" (the behaviour's delay and rejections), then runs `send`. */
export type Approve = (send: () => Promise<Hex>) => Promise<ChainEnvelope>

/** Methods a wallet forwards to its node unchanged (reads and broadcasts of signed data). */
const FORWARDED = new Set([
  'eth_blockNumber',
  'eth_call',
  'eth_estimateGas',
  'eth_feeHistory',
  'eth_gasPrice',
  'eth_getBalance',
  'eth_getBlockByNumber',
  'eth_getCode',
  'eth_getTransactionByHash',
  'eth_getTransactionCount',
  'eth_getTransactionReceipt',
  'eth_maxPriorityFeePerGas',
])

/** A transaction as `eth_sendTransaction` takes it (EIP-1474 hex quantities). */
interface TransactionParams {
  from?: unknown
  to?: Address
  value?: Hex
  data?: Hex
  input?: Hex
  gas?: Hex
  nonce?: Hex
}

const quantity = (value: Hex | undefined) => (value === undefined ? undefined : BigInt(value))

/**
 * The wallet's chain methods, with `account`'s key and the node per chain id
 * in `rpcUrls`; `undefined` for a method that is not one of them
 * (./ethereum.ts answers it as unsupported).
 */
export function chainRequests(
  account: PrivateKeyAccount,
  rpcUrls: Record<number, string>,
  state: WalletState,
  approve: Approve,
) {
  const nodeOf = (): string | undefined => rpcUrls[state().chainId]
  const disconnected = (): ChainEnvelope => ({
    error: { code: 4901, message: `The wallet has no node for chain ${state().chainId}.` },
  })

  async function forward(method: string, params: unknown[]): Promise<ChainEnvelope> {
    const url = nodeOf()
    if (!url) return disconnected()
    const response = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
    })
    const body = (await response.json()) as { result?: unknown; error?: RpcErrorShape }
    return body.error ? { error: body.error } : { result: body.result }
  }

  async function send(params: unknown[]): Promise<ChainEnvelope> {
    const tx = (params[0] ?? {}) as TransactionParams
    const from = typeof tx.from === 'string' ? tx.from.toLowerCase() : undefined
    if (!state().connected || from !== account.address.toLowerCase())
      return {
        error: {
          code: 4100,
          message: 'The requested account and/or method has not been authorized by the user.',
        },
      }
    const url = nodeOf()
    if (!url) return disconnected()
    const id = state().chainId
    const chain = defineChain({
      id,
      name: `Chain ${id}`,
      nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
      rpcUrls: { default: { http: [url] } },
    })
    const wallet = createWalletClient({ account, chain, transport: http(url) })
    return approve(() =>
      wallet.sendTransaction({
        to: tx.to ?? null,
        value: quantity(tx.value),
        data: tx.data ?? tx.input,
        gas: quantity(tx.gas),
        nonce: tx.nonce === undefined ? undefined : Number(BigInt(tx.nonce)),
      }),
    )
  }

  // A wallet given no node has no chain methods: they stay unsupported (4200).
  const hasNodes = Object.keys(rpcUrls).length > 0
  return async (method: string, params: unknown[]): Promise<ChainEnvelope | undefined> => {
    if (!hasNodes) return undefined
    if (method === 'eth_sendTransaction') return send(params)
    if (FORWARDED.has(method)) return forward(method, params)
    return undefined
  }
}
