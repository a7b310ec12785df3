import type { Config, Connector } from 'wagmi'
import { connect, disconnect } from 'wagmi/actions'
import {
  LATCHKEY_CONNECTOR_TYPE,
  type LatchkeyWagmiWallet,
  latchkeyConnector,
} from './latchkeyConnector.ts'

/** A wallet that can be made active: at least its address (any wallet of `useWallets()`). */
export interface ActiveWalletChoice {
  address: string
}

const keyOf = (wallet: ActiveWalletChoice) => wallet.address.toLowerCase()

/**
 * The wallet wagmi should act through: the one the host chose (while the
 * user still has it), else the embedded wallet, else the most recently
 * connected external wallet; null without any.
 */
export function pickActiveWallet<W extends LatchkeyWagmiWallet & { connectedAt?: number }>(
  wallets: readonly W[],
  preferred: string | null,
): W | null {
  const chosen = preferred ? wallets.find((w) => keyOf(w) === preferred) : undefined
  if (chosen) return chosen
  const embedded = wallets.find((w) => w.connectorType === 'embedded')
  if (embedded) return embedded
  let latest: W | null = null
  for (const wallet of wallets)
    if (!latest || (wallet.connectedAt ?? 0) > (latest.connectedAt ?? 0)) latest = wallet
  return latest
}

/**
 * The active wallet's state, one per `<LatchkeyWagmiProvider>`: the host's
 * choice (an observable value for `useSyncExternalStore`) and the wagmi
 * connection that follows it. Connection changes run one at a time, so a
 * quick switch or a logout during a connect ends on the latest wallet.
 */
export interface ActiveWalletStore {
  /** The chosen wallet's address (lowercase), or null for the default. */
  getPreferred(): string | null
  subscribe(listener: () => void): () => void
  prefer(wallet: ActiveWalletChoice | null): void
  /**
   * Connects wagmi to `wallet` through a Latchkey connector (first
   * disconnecting the previous Latchkey connection), or with null only
   * disconnects; a no-op while wagmi is already connected to it.
   */
  activate(config: Config, wallet: LatchkeyWagmiWallet | null): Promise<void>
}

export function createActiveWalletStore(): ActiveWalletStore {
  let preferred: string | null = null
  const listeners = new Set<() => void>()
  let queue: Promise<unknown> = Promise.resolve()
  let active: { key: string; connector: Connector } | null = null

  async function apply(config: Config, wallet: LatchkeyWagmiWallet | null) {
    const key = wallet ? keyOf(wallet) : null
    const ours = [...config.state.connections.values()]
      .map((c) => c.connector)
      .filter((c) => c.type === LATCHKEY_CONNECTOR_TYPE)
    if (key && active?.key === key && ours.some((c) => c.uid === active?.connector.uid)) return
    for (const connector of ours) await disconnect(config, { connector })
    active = null
    if (!wallet || !key) return
    const connector = config._internal.connectors.setup(latchkeyConnector({ wallet }))
    await connect(config, { connector })
    active = { key, connector }
  }

  return {
    getPreferred: () => preferred,
    subscribe(listener) {
      listeners.add(listener)
      return () => listeners.delete(listener)
    },
    prefer(wallet) {
      const next = wallet ? keyOf(wallet) : null
      if (next === preferred) return
      preferred = next
      for (const listener of listeners) listener()
    },
    activate(config, wallet) {
      const run = queue.then(() => apply(config, wallet))
      // The queue goes on after a failure; the caller sees it.
      queue = run.catch(() => undefined)
      return run
    },
  }
}
