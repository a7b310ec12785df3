import type { LatchkeyClient } from '../client.ts'
import { LatchkeyError } from '../errors.ts'
import type { EmbeddedWalletAccount } from '../user.ts'
import { enclaveRequest } from './enclave.ts'
import { ensureWalletReady } from './ensureWalletReady.ts'

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

export interface EthereumProviderOptions {
  /** Chain id reported by eth_chainId until wallet_switchEthereumChain (default 1). */
  chainId?: number
}

const isHex = (value: string) => /^0x[0-9a-fA-F]*$/.test(value)
const utf8ToHex = (text: string) =>
  `0x${Array.from(new TextEncoder().encode(text), (b) => b.toString(16).padStart(2, '0')).join('')}`

/**
 * The EIP-1193 provider of an embedded Ethereum wallet. Signing runs in the
 * enclave; the host never sees the key. Transactions come with a later issue.
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
  let chainId = options.chainId ?? 1
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
          return `0x${chainId.toString(16)}`
        case 'wallet_switchEthereumChain': {
          const id = (list[0] as { chainId?: unknown } | undefined)?.chainId
          if (typeof id !== 'string' || !isHex(id))
            throw new ProviderRpcError(-32602, 'wallet_switchEthereumChain needs { chainId: hex }')
          chainId = Number.parseInt(id, 16)
          return null
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
        default:
          throw new ProviderRpcError(4200, `The embedded wallet does not support ${method}`)
      }
    },
  }
}
