import { SMART_WALLET_CHAIN_IDS } from '@latchkey/protocol/client-schemas'
import type { SmartWalletConfig } from '@latchkey/protocol/schemas'
import type { Chain } from 'viem'
import { appChains } from '../hooks/app-chains.ts'
import type { UiState } from '../store.ts'

/** A chain the user's smart wallet can use: in the app's smart-wallet config and in the host's `chains`. */
export interface SmartWalletChain {
  chain: Chain
  sponsored: boolean
}

/**
 * The smart-wallet chains the browser can reach: the server's config says
 * which ids (and whether the app pays the gas), the host's `chains` give
 * each one its RPC and currency. A configured id the host does not list is
 * left out; the host's `defaultChain` comes first when it is one of them.
 */
export function smartWalletChains(
  config: SmartWalletConfig | null | undefined,
  host: { chains: readonly Chain[]; defaultChain: Chain },
): SmartWalletChain[] {
  const found = (config?.chains ?? []).flatMap(({ chain_id, sponsored }) => {
    const chain = host.chains.find((c) => c.id === chain_id)
    return chain ? [{ chain, sponsored }] : []
  })
  return found.sort(
    (a, b) =>
      Number(b.chain.id === host.defaultChain.id) - Number(a.chain.id === host.defaultChain.id),
  )
}

/** {@link smartWalletChains} of the provider's state now: the server's config over the host's chains. */
export const currentSmartWalletChains = (instance: {
  getUiState(): Pick<UiState, 'appConfig' | 'hostConfig'>
}): SmartWalletChain[] => {
  const { appConfig, hostConfig } = instance.getUiState()
  return smartWalletChains(appConfig?.smart_wallet_config, appChains(hostConfig))
}

const warned = new WeakSet<SmartWalletConfig>()

/**
 * Spec 01 §5: smart-wallet chains outside SMART_WALLET_CHAIN_IDS get an
 * informational warning (a local or less common chain works if the operator
 * runs a bundler for it; the warning only says it is off the tested list).
 * Once per config the server sent.
 */
export function warnUnsupportedSmartWalletChains(
  config: SmartWalletConfig | null | undefined,
  warn: (message: string) => void = (message) => console.warn(message),
): void {
  if (!config || warned.has(config)) return
  warned.add(config)
  const outside = config.chains
    .map((c) => c.chain_id)
    .filter((id) => !SMART_WALLET_CHAIN_IDS.includes(id))
  if (outside.length > 0)
    warn(
      `Latchkey: smart wallets are configured on chain${outside.length > 1 ? 's' : ''} ${outside.join(', ')}, outside the supported list (${SMART_WALLET_CHAIN_IDS.join(', ')}).`,
    )
}
