/**
 * `@latchkey/wagmi`: the user's Latchkey wallets (the embedded wallet and
 * connected external wallets) as wagmi connectors, so a host keeps wagmi's
 * hooks and actions (`useConnection`/`useAccount`, `useSignMessage`,
 * `useSendTransaction`…).
 *
 * @module
 * @example
 * import { LatchkeyWagmiProvider } from '@latchkey/wagmi'
 *
 * <LatchkeyProvider appId={appId} apiUrl={apiUrl}>
 *   <QueryClientProvider client={queryClient}>
 *     <LatchkeyWagmiProvider config={wagmiConfig}><App /></LatchkeyWagmiProvider>
 *   </QueryClientProvider>
 * </LatchkeyProvider>
 */

export type { ActiveWalletChoice } from './active-wallet.ts'
export {
  LatchkeyWagmiProvider,
  type LatchkeyWagmiProviderProps,
  useSetActiveWallet,
} from './LatchkeyWagmiProvider.tsx'
export {
  LATCHKEY_CONNECTOR_TYPE,
  type LatchkeyConnectorParameters,
  type LatchkeyConnectorProvider,
  type LatchkeyEthereumProvider,
  type LatchkeyWagmiWallet,
  latchkeyConnector,
} from './latchkeyConnector.ts'
export { useWagmiWallets, type WagmiWallet } from './useWagmiWallets.ts'
