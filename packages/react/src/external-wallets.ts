import type { LatchkeyClient } from '@latchkey/core'
import type { ExternalWallets, ExternalWalletsState } from '@latchkey/core/external'
import { StorageKey } from '@latchkey/protocol/constants'
import type { LatchkeyConfig } from './config.ts'

/** The provider's external-wallet manager, created on first use (its code loads lazily). */
export interface ExternalWalletsHandle {
  /** Loads `@latchkey/core/external` and creates the manager once; later calls share it. */
  load(): Promise<ExternalWallets>
  /** The manager once loaded, else null (nothing is loaded by asking). */
  peek(): ExternalWallets | null
  /** The manager's state, or null before it loads; for `useSyncExternalStore`. */
  getState(): ExternalWalletsState | null
  /** Notified on every change of the manager's state, and when it loads. */
  subscribe(listener: () => void): () => void
  /**
   * Reconnects the wallets this browser connected before (stored connection
   * records), once; loads nothing when there are none.
   */
  restore(): void
}

/**
 * Creates the handle. The manager reads the host's `chains`, `defaultChain`
 * and WalletConnect project id when it is created; later changes to them
 * need a new provider.
 */
export function createExternalWalletsHandle(
  client: LatchkeyClient,
  getHostConfig: () => LatchkeyConfig,
  getAppName: () => string | null,
): ExternalWalletsHandle {
  let manager: ExternalWallets | null = null
  let loading: Promise<ExternalWallets> | null = null
  let restoring = false
  const listeners = new Set<() => void>()
  const notify = () => {
    for (const listener of listeners) listener()
  }
  const load = () => {
    loading ??= (async () => {
      const { createExternalWalletsManager } = await import('./external-wallets-manager.ts')
      manager = createExternalWalletsManager(client, getHostConfig(), getAppName())
      manager.subscribe(notify)
      notify()
      return manager
    })().catch((error) => {
      loading = null
      throw error
    })
    return loading
  }
  return {
    load,
    peek: () => manager,
    getState: () => manager?.getState() ?? null,
    subscribe(listener) {
      listeners.add(listener)
      return () => listeners.delete(listener)
    },
    restore() {
      if (restoring) return
      restoring = true
      const key = StorageKey.walletConnections.replace('{appId}', client.appId)
      if (!client.storage.get(key)) return
      load().then(
        (loaded) => loaded.restore(),
        () => undefined,
      )
    },
  }
}
