import { EthereumProvider } from '@walletconnect/ethereum-provider'
import type { EIP1193Provider } from './ethereum-discovery.ts'
import { slugForWallet } from './listings.ts'
import type { EvmChain } from './types.ts'

export interface WalletConnectProviderOptions {
  projectId: string
  chains: readonly EvmChain[]
  defaultChain: EvmChain
  appName: string
  appLogoUrl: string | null
  url: string
  onDisplayUri?(uri: string): void
  /** A WalletConnect relay other than the public one (self-hosted relays). */
  relayUrl?: string
}

/**
 * A WalletConnect v2 EIP-1193 provider (`@walletconnect/ethereum-provider`),
 * loaded only when the user picks WalletConnect. Latchkey draws the QR code
 * itself (`showQrModal: false`) from the `display_uri` event.
 */
export async function createWalletConnectProvider(options: WalletConnectProviderOptions) {
  const others = options.chains.map((c) => c.id).filter((id) => id !== options.defaultChain.id)
  const provider = await EthereumProvider.init({
    projectId: options.projectId,
    showQrModal: false,
    optionalChains: [options.defaultChain.id, ...others],
    rpcMap: Object.fromEntries(
      options.chains.map((c) => [String(c.id), c.rpcUrls.default.http[0] ?? '']),
    ),
    metadata: {
      name: options.appName,
      description: options.appName,
      url: options.url,
      icons: options.appLogoUrl ? [options.appLogoUrl] : [],
    },
    ...(options.relayUrl ? { relayUrl: options.relayUrl } : {}),
  })
  if (options.onDisplayUri) provider.on('display_uri', options.onDisplayUri)
  return {
    provider: provider as unknown as EIP1193Provider,
    /** The connected wallet app's slug (`metamask`, `rainbow`…), from its session metadata. */
    walletSlug: () => {
      const name = provider.session?.peer.metadata.name
      return name ? slugForWallet(name) : null
    },
    disconnect: () => provider.disconnect(),
  }
}
