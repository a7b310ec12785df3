import { WALLET_RPC_TIMEOUT_MS } from '@latchkey/protocol/constants'
import { LatchkeyError } from '../errors.ts'
import { withWalletTimeout } from './errors.ts'
import type { EIP1193Provider } from './ethereum-discovery.ts'
import type { EvmChain } from './types.ts'

/** A chain id as EIP-1193 wallets take it (`0x1`). */
export const hexChainId = (id: number) => `0x${id.toString(16)}`
/** A chain id as CAIP-2 (`eip155:1`), the form `chainId` of a connected wallet has. */
export const caip2 = (id: number) => `eip155:${id}`

/** The `wallet_addEthereumChain` parameters of a chain. */
export function addChainParameters(chain: EvmChain) {
  return {
    chainId: hexChainId(chain.id),
    chainName: chain.name,
    nativeCurrency: chain.nativeCurrency,
    rpcUrls: [...chain.rpcUrls.default.http],
    ...(chain.blockExplorers ? { blockExplorerUrls: [chain.blockExplorers.default.url] } : {}),
  }
}

/**
 * Switches an EIP-1193 wallet to `chain`; when the wallet does not know it
 * (4902) the chain is added first, then switched to.
 */
export async function switchEthereumChain(
  provider: EIP1193Provider,
  chain: EvmChain,
  timeoutMs = WALLET_RPC_TIMEOUT_MS,
): Promise<void> {
  const params = [{ chainId: hexChainId(chain.id) }]
  try {
    await withWalletTimeout(
      provider.request({ method: 'wallet_switchEthereumChain', params }),
      timeoutMs,
    )
  } catch (error) {
    const cause = (error as LatchkeyError).details as { providerCode?: number } | undefined
    if (cause?.providerCode !== 4902) throw error
    await withWalletTimeout(
      provider.request({ method: 'wallet_addEthereumChain', params: [addChainParameters(chain)] }),
      timeoutMs,
    )
    await withWalletTimeout(
      provider.request({ method: 'wallet_switchEthereumChain', params }),
      timeoutMs,
    )
  }
}

/** The error for a chain the app does not support (spec 01 §8 "Configuration"). */
export const unsupportedChain = (id: number) =>
  new LatchkeyError('UNSUPPORTED_CHAIN', `Chain ID ${id} is not supported by this app.`, {
    details: { id },
  })

/** Validates `chains` / `defaultChain` (spec 01 §5); throws INVALID_CHAINS or UNSUPPORTED_CHAIN. */
export function checkChains(chains: readonly EvmChain[], defaultChain: EvmChain | undefined) {
  if (chains.length === 0) throw new LatchkeyError('INVALID_CHAINS')
  if (defaultChain && !chains.some((c) => c.id === defaultChain.id))
    throw unsupportedChain(defaultChain.id)
}
