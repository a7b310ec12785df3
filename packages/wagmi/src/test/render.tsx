import { QueryClient, QueryClientProvider } from '@tanstack/react-query'
import type { ReactNode } from 'react'
import { createRoot } from 'react-dom/client'
import type { Chain } from 'viem'
import { createConfig, http } from 'wagmi'
import { setupEnclaveClient, walletWire } from '../../../core/src/test/enclave-client.ts'
// @latchkey/react's own test wiring, by path (docs-wagmi decision 6): its
// instance and modal host, as LatchkeyProvider mounts them.
import { LatchkeyContext } from '../../../react/src/context.ts'
import { ModalHost } from '../../../react/src/modal/lazy.tsx'
import { createLatchkeyInstance } from '../../../react/src/store.ts'
import { LatchkeyWagmiProvider } from '../LatchkeyWagmiProvider.tsx'
import { devAccount, devKeyEnclave } from './anvil-wallet.ts'

/**
 * Mounts `ui` under a Latchkey instance whose user has an embedded wallet
 * (Anvil's dev key, signing in a function enclave), TanStack Query and
 * `<LatchkeyWagmiProvider>` on a wagmi config of `chain`.
 */
export async function renderWithWagmi(ui: ReactNode, chain: Chain) {
  const { client } = setupEnclaveClient(devKeyEnclave, [
    walletWire(devAccount.address, 'ethereum', 0, devAccount.address),
  ])
  const instance = createLatchkeyInstance(client, { chains: [chain], defaultChain: chain })
  const config = createConfig({
    chains: [chain],
    transports: { [chain.id]: http() },
    storage: null,
    multiInjectedProviderDiscovery: false,
  })
  // Updates come from the wallet and wagmi's store, as in a browser: tests wait
  // for what they cause instead of wrapping them in act().
  // Restored on unmount: other files of the worker render with @testing-library/react.
  const flags = globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }
  const actEnvironment = flags.IS_REACT_ACT_ENVIRONMENT
  flags.IS_REACT_ACT_ENVIRONMENT = false
  const container = document.createElement('div')
  document.body.append(container)
  const root = createRoot(container)
  root.render(
    <LatchkeyContext.Provider value={instance}>
      <QueryClientProvider client={new QueryClient()}>
        <LatchkeyWagmiProvider config={config}>{ui}</LatchkeyWagmiProvider>
      </QueryClientProvider>
      <ModalHost instance={instance} preload={false} />
    </LatchkeyContext.Provider>,
  )
  const unmount = async () => {
    root.unmount()
    container.remove()
    flags.IS_REACT_ACT_ENVIRONMENT = actEnvironment
  }
  return { client, instance, config, unmount }
}
