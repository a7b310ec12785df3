import type { WalletChainType } from '@latchkey/core/external'
import { useEffect, useMemo, useSyncExternalStore } from 'react'
import type { LatchkeyInstance } from '../instance.ts'
import { landingShowsWallets } from './landing.ts'
import {
  LandingScreen,
  type LandingScreenProps,
  type LandingWallets,
} from './screens/LandingScreen.tsx'

/**
 * The app's wallets for the landing screen's wallet rows, when it draws any
 * (`landingShowsWallets`): loads the wallet code then (and only then), and
 * follows discovery as wallets announce themselves. Undefined when the
 * landing screen draws no wallet of its own.
 */
export function useLandingWallets(
  instance: LatchkeyInstance,
  config: LandingScreenProps['config'],
  walletChainType: WalletChainType,
): LandingWallets | undefined {
  const wanted = landingShowsWallets(config)
  const handle = instance.externalWallets
  const state = useSyncExternalStore(handle.subscribe, handle.getState, handle.getState)
  useEffect(() => {
    // A failure shows where it matters: on the wallet screen, which loads it again.
    if (wanted) handle.load().catch(() => undefined)
  }, [wanted, handle])
  const { walletList } = config
  // biome-ignore lint/correctness/useExhaustiveDependencies: `state` is the manager's snapshot; a new one means a new list
  return useMemo(() => {
    if (!wanted) return undefined
    const manager = handle.peek()
    if (!manager) return { options: null, expand: () => [], recentId: null }
    return {
      options: manager.options({ walletChainType, ...(walletList ? { walletList } : {}) }),
      expand: (entry) => manager.options({ walletChainType, walletList: [entry] }),
      recentId: manager.recent()?.walletClientType ?? null,
    }
  }, [wanted, handle, state, walletChainType, walletList])
}

/** The landing step: the landing screen with the app's wallets when it draws some. */
export function LandingWithWallets({
  instance,
  walletChainType,
  ...props
}: Omit<LandingScreenProps, 'wallets'> & {
  instance: LatchkeyInstance
  walletChainType: WalletChainType
}) {
  const wallets = useLandingWallets(instance, props.config, walletChainType)
  return <LandingScreen {...props} wallets={wallets} />
}
