import { StorageKey } from '@latchkey/protocol/constants'
import type { ChainType } from '@latchkey/protocol/schemas'
import type { KeyValueStorage } from '../storage.ts'
import type { DetectedEthereumWallet } from './ethereum-discovery.ts'
import type { StandardWallet } from './solana-discovery.ts'
import type { ConnectedExternalWallet, ConnectorState, StoredConnection } from './types.ts'

/** What the store holds; replaced (never mutated) on every change, for `useSyncExternalStore`. */
export interface ExternalWalletsState {
  ethereum: readonly DetectedEthereumWallet[]
  solana: readonly StandardWallet[]
  wallets: readonly ConnectedExternalWallet[]
  connectors: Readonly<Record<string, ConnectorState>>
}

/**
 * The observable state of one app's external wallets, with the connection
 * records and the most recent wallet it persists (spec 01 §3). Connectors
 * (`ethereum-connector.ts`, `solana-connector.ts`) write through it.
 */
export interface WalletStore {
  getState(): ExternalWalletsState
  set(patch: Partial<ExternalWalletsState>): void
  setConnector(key: string, value: ConnectorState): void
  /** Adds or replaces a connected wallet and persists the records. */
  upsert(wallet: ConnectedExternalWallet): void
  /** Forgets a connected wallet: stops following it, marks its connector disconnected. */
  remove(type: ChainType, key: string): void
  /** Remembers how to stop following connection `key`'s events (replacing what was there). */
  follow(key: string, off: () => void): void
  stopFollowing(key: string): void
  subscribe(listener: () => void): () => void
  /** Waits (at most `ms`) until `found()` is true, re-checking on every state change. */
  waitFor(found: () => boolean, ms: number): Promise<void>
  readRecords(): StoredConnection[]
  /** Persists the connected wallets' records, and the kept ones not connected again yet. */
  writeRecords(): void
  /**
   * Keeps a stored record that could not be checked this time (its connector
   * did not initialise in time): it stays stored until it connects or is removed.
   */
  keepRecord(record: StoredConnection): void
  recent(): { walletClientType: string; chainType: ChainType } | null
  setRecent(wallet: ConnectedExternalWallet): void
  destroy(): void
}

const connectionsKeyFor = (appId: string) => StorageKey.walletConnections.replace('{appId}', appId)

export function createWalletStore(storage: KeyValueStorage, appId: string): WalletStore {
  const connectionsKey = connectionsKeyFor(appId)
  const recentKey = StorageKey.recentWallet.replace('{appId}', appId)
  const listeners = new Set<() => void>()
  /** Per connection: removes the provider / wallet event listeners a connector added. */
  const unfollow = new Map<string, () => void>()
  const kept = new Map<string, StoredConnection>()
  const id = (type: ChainType, key: string) => `${type}:${key}`
  let state: ExternalWalletsState = { ethereum: [], solana: [], wallets: [], connectors: {} }

  const set = (patch: Partial<ExternalWalletsState>) => {
    state = { ...state, ...patch }
    for (const listener of listeners) listener()
  }
  const setConnector = (key: string, value: ConnectorState) =>
    set({ connectors: { ...state.connectors, [key]: value } })
  const stopFollowing = (key: string) => {
    unfollow.get(key)?.()
    unfollow.delete(key)
  }
  const writeRecords = () => {
    const records: StoredConnection[] = state.wallets.map((w) => ({
      key: w.meta.id,
      address: w.address,
      chainType: w.type,
      connectorType: w.connectorType,
      walletClientType: w.walletClientType,
      connectedAt: w.connectedAt,
    }))
    const live = new Set(state.wallets.map((w) => id(w.type, w.meta.id)))
    for (const [recordId, record] of kept)
      if (live.has(recordId)) kept.delete(recordId)
      else records.push(record)
    if (records.length === 0) storage.remove(connectionsKey)
    else storage.set(connectionsKey, JSON.stringify(records))
  }

  return {
    getState: () => state,
    set,
    setConnector,
    upsert(wallet) {
      const others = state.wallets.filter(
        (w) => !(w.type === wallet.type && w.meta.id === wallet.meta.id),
      )
      set({ wallets: [...others, wallet] })
      writeRecords()
    },
    remove(type, key) {
      if (kept.delete(id(type, key))) writeRecords()
      if (!state.wallets.some((w) => w.type === type && w.meta.id === key)) return
      set({ wallets: state.wallets.filter((w) => !(w.type === type && w.meta.id === key)) })
      stopFollowing(key)
      setConnector(key, 'disconnected')
      writeRecords()
    },
    follow(key, off) {
      stopFollowing(key)
      unfollow.set(key, off)
    },
    stopFollowing,
    subscribe(listener) {
      listeners.add(listener)
      return () => listeners.delete(listener)
    },
    waitFor: (found, ms) =>
      new Promise<void>((resolve) => {
        if (found()) return resolve()
        const stop = () => {
          clearTimeout(timer)
          listeners.delete(check)
          resolve()
        }
        const check = () => {
          if (found()) stop()
        }
        const timer = setTimeout(stop, ms)
        listeners.add(check)
      }),
    readRecords() {
      try {
        const parsed = JSON.parse(storage.get(connectionsKey) ?? '[]') as unknown
        return Array.isArray(parsed) ? (parsed as StoredConnection[]) : []
      } catch {
        return []
      }
    },
    writeRecords,
    keepRecord(record) {
      kept.set(id(record.chainType, record.key), record)
    },
    recent() {
      try {
        const value = JSON.parse(storage.get(recentKey) ?? 'null') as {
          walletClientType?: string
          chainType?: ChainType
        } | null
        return value?.walletClientType && value.chainType
          ? { walletClientType: value.walletClientType, chainType: value.chainType }
          : null
      } catch {
        return null
      }
    },
    setRecent(wallet) {
      storage.set(
        recentKey,
        JSON.stringify({ walletClientType: wallet.walletClientType, chainType: wallet.type }),
      )
    },
    destroy() {
      for (const off of unfollow.values()) off()
      unfollow.clear()
      listeners.clear()
    },
  }
}

/** Whether this browser has stored wallet connections for the app (cheap; no SDK loaded). */
export function hasStoredWalletConnections(storage: KeyValueStorage, appId: string): boolean {
  return Boolean(storage.get(connectionsKeyFor(appId)))
}
