import { LatchkeyError, useLatchkey } from '@latchkey/react'
import {
  createContext,
  memo,
  type ReactNode,
  useCallback,
  useContext,
  useEffect,
  useMemo,
  useRef,
  useState,
  useSyncExternalStore,
} from 'react'
import { type Config, Hydrate, type State, WagmiContext } from 'wagmi'
import {
  type ActiveWalletChoice,
  type ActiveWalletStore,
  createActiveWalletStore,
  pickActiveWallet,
} from './active-wallet.ts'
import { useWagmiWallets, type WagmiWallet } from './useWagmiWallets.ts'

const ActiveWalletContext = createContext<{ config: Config; store: ActiveWalletStore } | null>(null)

export interface LatchkeyWagmiProviderProps {
  /** The host's wagmi config (`createConfig` from `wagmi`): its chains and transports. */
  config: Config
  /** wagmi's SSR state (`cookieToInitialState`), as for wagmi's own provider. */
  initialState?: State
  children?: ReactNode
}

// wagmi's <Hydrate> resets stored connections each time it renders when it
// does not reconnect: rendered once per config, beside the app, it cannot
// undo the connection this provider makes.
const HydrateOnce = memo(function HydrateOnce(props: { config: Config; initialState?: State }) {
  return <Hydrate {...props} reconnectOnMount={false} />
})

/**
 * wagmi's provider, kept connected to the user's active Latchkey wallet:
 * the embedded wallet by default, else the most recently connected
 * external wallet; `useSetActiveWallet()` picks another. wagmi's hooks
 * (`useConnection`/`useAccount`, `useSignMessage`, `useSendTransaction`…)
 * then act through it, with the modal's sign and confirm screens for the
 * embedded wallet. Logging out disconnects wagmi. Put it inside
 * `<LatchkeyProvider>` and TanStack Query's `<QueryClientProvider>`, in
 * place of wagmi's `<WagmiProvider>` (it does not reconnect wagmi's own
 * connectors on load: Latchkey's session decides what is connected).
 *
 * @example
 * const wagmiConfig = createConfig({ chains: [base], transports: { [base.id]: http() } })
 * <LatchkeyProvider appId={appId} apiUrl={apiUrl} config={{ chains: [base] }}>
 *   <QueryClientProvider client={queryClient}>
 *     <LatchkeyWagmiProvider config={wagmiConfig}><App /></LatchkeyWagmiProvider>
 *   </QueryClientProvider>
 * </LatchkeyProvider>
 */
export function LatchkeyWagmiProvider({
  config,
  initialState,
  children,
}: LatchkeyWagmiProviderProps) {
  const [store] = useState(createActiveWalletStore)
  const value = useMemo(() => ({ config, store }), [config, store])
  return (
    <WagmiContext.Provider value={config}>
      <HydrateOnce config={config} initialState={initialState} />
      <ActiveWalletContext.Provider value={value}>
        <ActiveWalletSync />
        {children}
      </ActiveWalletContext.Provider>
    </WagmiContext.Provider>
  )
}

function useActiveWalletContext() {
  const context = useContext(ActiveWalletContext)
  if (!context) throw new Error('useSetActiveWallet must be used within <LatchkeyWagmiProvider>')
  return context
}

/** Connects wagmi to the active wallet whenever it changes; disconnects on logout. */
function ActiveWalletSync() {
  const { config, store } = useActiveWalletContext()
  const { ready, authenticated } = useLatchkey()
  const { wallets } = useWagmiWallets()
  const preferred = useSyncExternalStore(store.subscribe, store.getPreferred, store.getPreferred)
  const active = authenticated ? pickActiveWallet(wallets, preferred) : null
  // The wallet objects change with every session refresh; the connection follows the address.
  const latest = useRef<WagmiWallet | null>(active)
  latest.current = active
  const key = active ? `${active.connectorType}:${active.address.toLowerCase()}` : null
  useEffect(() => {
    // Until the stored session is known, nothing changes (no disconnect on load).
    if (!ready) return
    store.activate(config, key ? latest.current : null).catch((error: unknown) => {
      console.warn('Latchkey: wagmi could not connect to the active wallet', error)
    })
  }, [ready, key, config, store])
  return null
}

/**
 * Switches the wallet wagmi acts through to another of the user's wallets
 * (`useWallets()`): an embedded wallet or a connected external one. Resolves
 * once wagmi is connected to it; rejects as wagmi's `connect` does (e.g.
 * UserRejectedRequestError) or, when the user has no such wallet, with
 * WALLET_NOT_FOUND.
 *
 * @example
 * const { wallets } = useWallets()
 * const { setActiveWallet } = useSetActiveWallet()
 * await setActiveWallet(wallets.find((w) => w.connectorType !== 'embedded')!)
 */
export function useSetActiveWallet(): {
  setActiveWallet(wallet: ActiveWalletChoice): Promise<void>
} {
  const { config, store } = useActiveWalletContext()
  const { wallets } = useWagmiWallets()
  const setActiveWallet = useCallback(
    async (choice: ActiveWalletChoice) => {
      const wallet = pickActiveWallet(wallets, choice.address.toLowerCase())
      if (!wallet || wallet.address.toLowerCase() !== choice.address.toLowerCase())
        throw new LatchkeyError(
          'WALLET_NOT_FOUND',
          `No wallet ${choice.address} among the user's wallets`,
        )
      store.prefer(wallet)
      await store.activate(config, wallet)
    },
    [config, store, wallets],
  )
  return { setActiveWallet }
}
