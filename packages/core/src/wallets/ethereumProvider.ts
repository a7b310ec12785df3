import { providerErrors } from '@latchkey/protocol/error-basics'
import type { Chain, Hex } from 'viem'
import type { LatchkeyClient } from '../client.ts'
import { LatchkeyError } from '../errors.ts'
import { normalizeEthereumRequest } from '../transactions/ethereum/normalize.ts'
import type { EthereumTransactionInput } from '../transactions/ethereum/types.ts'
import type { EmbeddedWalletAccount } from '../user.ts'
import { enclaveRequest } from './enclave.ts'
import { ensureWalletReady } from './ensureWalletReady.ts'
import {
  sendEthereumTransaction,
  signEthereumTransactionRequest,
} from './sendEthereumTransaction.ts'

/** An EIP-1193 error: `code` is the EIP-1193 / JSON-RPC number. */
export class ProviderRpcError extends Error {
  override name = 'ProviderRpcError' as const
  constructor(
    readonly code: number,
    message: string,
  ) {
    super(message)
  }
}

export interface EmbeddedEthereumProvider {
  request(args: { method: string; params?: unknown }): Promise<unknown>
}

/** What an `eth_sendTransaction` / `eth_signTransaction` asks for, on which of the app's chains. */
export interface EthereumTransactionCall {
  method: 'eth_sendTransaction' | 'eth_signTransaction'
  input: EthereumTransactionInput
  chain: Chain
}

export interface EthereumProviderOptions {
  /**
   * Chain id reported by eth_chainId until wallet_switchEthereumChain
   * (default: the first chain's, else 1); a function is read until then.
   */
  chainId?: number | (() => number)
  /**
   * The app's chains (viem chain objects). Transactions go to the current
   * chain's RPC URL; switching to, or sending on, another chain fails
   * (4902 / UNSUPPORTED_CHAIN). Read-only calls (eth_call, eth_getBalance…)
   * are answered by the current chain's node. Default: none (signing only).
   * A function is read on each call (the app's configuration may change).
   */
  chains?: readonly Chain[] | (() => readonly Chain[])
  /**
   * Runs a transaction call instead of sending it at once: the React
   * provider opens the confirm screen here. Answers the hash (send) or the
   * signed transaction (sign).
   */
  onTransaction?: (call: EthereumTransactionCall) => Promise<Hex>
}

/** Read-only JSON-RPC methods passed through to the current chain's node (the smart wallet's provider too). */
export const ETHEREUM_READ_METHODS: ReadonlySet<string> = new Set([
  'eth_blockNumber',
  'eth_call',
  'eth_estimateGas',
  'eth_feeHistory',
  'eth_gasPrice',
  'eth_getBalance',
  'eth_getBlockByHash',
  'eth_getBlockByNumber',
  'eth_getCode',
  'eth_getLogs',
  'eth_getStorageAt',
  'eth_getTransactionByHash',
  'eth_getTransactionCount',
  'eth_getTransactionReceipt',
  'eth_maxPriorityFeePerGas',
  'net_version',
])

const isHex = (value: string) => /^0x[0-9a-fA-F]*$/.test(value)
const utf8ToHex = (text: string) =>
  `0x${Array.from(new TextEncoder().encode(text), (b) => b.toString(16).padStart(2, '0')).join('')}`

/**
 * The EIP-1193 provider of an embedded Ethereum wallet. Signing runs in the
 * enclave; the host never sees the key. Transactions are prepared on the
 * current chain, signed in the enclave and sent (or run through
 * `onTransaction`, the confirm screen).
 *
 * @example
 * const provider = createEmbeddedEthereumProvider(client, wallet)
 * const signature = await provider.request({ method: 'personal_sign', params: ['0x68656c6c6f', wallet.address] })
 */
export function createEmbeddedEthereumProvider(
  client: LatchkeyClient,
  wallet: EmbeddedWalletAccount,
  options: EthereumProviderOptions = {},
): EmbeddedEthereumProvider {
  if (wallet.chainType !== 'ethereum') throw new LatchkeyError('UNSUPPORTED_METHOD')
  const appChains = () =>
    (typeof options.chains === 'function' ? options.chains() : options.chains) ?? []
  let switched: number | undefined
  const currentChainId = () =>
    switched ??
    (typeof options.chainId === 'function' ? options.chainId() : options.chainId) ??
    appChains()[0]?.id ??
    1
  const sameAddress = (value: unknown) =>
    typeof value === 'string' && value.toLowerCase() === wallet.address.toLowerCase()

  async function sign(request: { method: string; params: [string, string] }) {
    await ensureWalletReady(client, wallet.entropyId)
    const { result } = await enclaveRequest<{ result: string }>(client, 'latchkey:wallets:rpc', {
      entropy_id: wallet.entropyId,
      chain_type: 'ethereum',
      wallet_index: wallet.walletIndex,
      request,
    })
    return result
  }

  return {
    async request({ method, params }) {
      const list = Array.isArray(params) ? params : []
      switch (method) {
        case 'eth_accounts':
        case 'eth_requestAccounts':
          return [wallet.address]
        case 'eth_chainId':
          return `0x${currentChainId().toString(16)}`
        case 'wallet_switchEthereumChain': {
          const id = (list[0] as { chainId?: unknown } | undefined)?.chainId
          if (typeof id !== 'string' || !isHex(id))
            throw new ProviderRpcError(-32602, 'wallet_switchEthereumChain needs { chainId: hex }')
          const next = Number.parseInt(id, 16)
          const chains = appChains()
          if (chains.length > 0 && !chains.some((c) => c.id === next))
            throw new ProviderRpcError(
              providerErrors.unrecognizedChain.code,
              `Chain ID ${next} is not supported by this app.`,
            )
          switched = next
          return null
        }
        case 'eth_sendTransaction':
        case 'eth_signTransaction': {
          const raw = list[0] as { from?: unknown } | undefined
          if (raw?.from !== undefined && !sameAddress(raw.from))
            throw new ProviderRpcError(4100, 'Unknown address')
          const input = normalizeEthereumRequest(raw)
          // Chain access loads on first use: the modal's first chunk stays small.
          const { findChain } = await import('../transactions/ethereum/chain-client.ts')
          const chain = findChain(appChains(), input.chainId ?? currentChainId())
          if (options.onTransaction) return options.onTransaction({ method, input, chain })
          const send = await import('./sendEthereumTransaction.ts')
          if (method === 'eth_signTransaction')
            return send.signEthereumTransactionRequest(client, wallet, { chain, input })
          return (await send.sendEthereumTransaction(client, wallet, { chain, input })).hash
        }
        case 'personal_sign': {
          const [message, address] = list as [unknown, unknown]
          if (typeof message !== 'string' || message.length === 0 || message === '0x')
            throw new LatchkeyError('EMPTY_MESSAGE')
          if (!sameAddress(address)) throw new ProviderRpcError(4100, 'Unknown address')
          return sign({
            method,
            params: [isHex(message) ? message : utf8ToHex(message), wallet.address],
          })
        }
        case 'eth_signTypedData_v4': {
          const [address, typedData] = list as [unknown, unknown]
          if (!sameAddress(address)) throw new ProviderRpcError(4100, 'Unknown address')
          const json = typeof typedData === 'string' ? typedData : JSON.stringify(typedData)
          return sign({ method, params: [wallet.address, json] })
        }
        default: {
          const chain = appChains().find((c) => c.id === currentChainId())
          if (chain && ETHEREUM_READ_METHODS.has(method)) {
            const { chainClient } = await import('../transactions/ethereum/chain-client.ts')
            return chainClient(chain).request({ method, params } as never)
          }
          throw new ProviderRpcError(4200, `The embedded wallet does not support ${method}`)
        }
      }
    },
  }
}
