import type { LatchkeyClient } from '@latchkey/core'
import { createExternalWallets, type ExternalWallets } from '@latchkey/core/external'
import type { LatchkeyConfig } from './config.ts'
import { appChains } from './hooks/app-chains.ts'

// The handle's (external-wallets.ts) first use loads this module together
// with `@latchkey/core/external`: what a manager is built from stays off the
// first chunk (docs/first-load.md).

/**
 * The external-wallet manager for the host's `chains`, `defaultChain`,
 * WalletConnect and RPC timeout settings, as they are now.
 */
export function createExternalWalletsManager(
  client: LatchkeyClient,
  host: LatchkeyConfig,
  appName: string | null,
): ExternalWallets {
  // app-chains.ts imports `mainnet` by name: `import('viem/chains')` would
  // keep every chain viem knows (about 90 KB gzip).
  const { chains, defaultChain } = appChains(host)
  const { walletConnect, rpcTimeoutMs, rpcTimeoutMsByWallet } = host.externalWallets ?? {}
  return createExternalWallets({
    appId: client.appId,
    storage: client.storage,
    appName: appName ?? undefined,
    chains,
    defaultChain,
    walletConnectProjectId:
      walletConnect?.enabled === false ? null : (walletConnect?.projectId ?? null),
    ...(walletConnect?.relayUrl ? { walletConnectRelayUrl: walletConnect.relayUrl } : {}),
    ...(rpcTimeoutMs ? { rpcTimeoutMs } : {}),
    ...(rpcTimeoutMsByWallet ? { rpcTimeoutMsByWallet } : {}),
  })
}
