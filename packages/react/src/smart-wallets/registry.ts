import { type EmbeddedWalletAccount, LatchkeyError } from '@latchkey/core'
import type { LatchkeyInstance } from '../store.ts'
import { currentSmartWalletChains, type SmartWalletChain } from './chains.ts'
import { type SmartWalletClient, smartWalletClient } from './client.ts'
import type { SmartWalletHandle } from './types.ts'

/** Builds core's smart wallet for `owner` on `chain` (core's `createEmbeddedSmartWallet`). */
export type CreateSmartWallet = (
  instance: LatchkeyInstance,
  parameters: { owner: EmbeddedWalletAccount; chain: SmartWalletChain },
) => Promise<SmartWalletHandle>

export interface SmartWalletsState {
  /** The chain `switchChain` picked; null: the first of the app's smart-wallet chains. */
  chainId: number | null
  /** Ready clients by `keyOf(owner, chain id)`. */
  clients: ReadonlyMap<string, SmartWalletClient>
  /** Why a client could not be built, by the same key; cleared when it is asked again. */
  errors: ReadonlyMap<string, LatchkeyError | Error>
}

export const keyOf = (owner: string, chainId: number) => `${owner.toLowerCase()}:${chainId}`

/**
 * The smart wallets of one provider instance, shared by every
 * `useSmartWallets()` under it: one creation per owner and chain (creation
 * may link the wallet on the server, so it must not run per component), the
 * current chain, and a failure to show. A failed creation is forgotten, so
 * asking again retries it.
 */
export interface SmartWalletsRegistry {
  getState(): SmartWalletsState
  subscribe(listener: () => void): () => void
  select(chainId: number): void
  /**
   * Makes `chainId` current for every hook; resolves once its client is
   * ready. UNSUPPORTED_CHAIN for a chain without smart wallets in this app.
   */
  switchChain(owner: EmbeddedWalletAccount, chainId: number): Promise<SmartWalletClient>
  /** The client for `owner` on `chain`, created once. */
  load(owner: EmbeddedWalletAccount, chain: SmartWalletChain): Promise<SmartWalletClient>
}

const registries = new WeakMap<LatchkeyInstance, SmartWalletsRegistry>()

/** The registry of `instance`, made on first use with `create` (tests pass a fake core). */
export function smartWalletsRegistry(
  instance: LatchkeyInstance,
  create: CreateSmartWallet,
): SmartWalletsRegistry {
  const existing = registries.get(instance)
  if (existing) return existing
  let state: SmartWalletsState = { chainId: null, clients: new Map(), errors: new Map() }
  const listeners = new Set<() => void>()
  const set = (patch: Partial<SmartWalletsState>) => {
    state = { ...state, ...patch }
    for (const listener of listeners) listener()
  }
  const pending = new Map<string, Promise<SmartWalletClient>>()
  const registry: SmartWalletsRegistry = {
    getState: () => state,
    subscribe(listener) {
      listeners.add(listener)
      return () => listeners.delete(listener)
    },
    select(chainId) {
      if (chainId !== state.chainId) set({ chainId })
    },
    async switchChain(owner, chainId) {
      const chain = currentSmartWalletChains(instance).find((c) => c.chain.id === chainId)
      if (!chain)
        throw new LatchkeyError(
          'UNSUPPORTED_CHAIN',
          `Chain ID ${chainId} has no smart wallet in this app.`,
          { details: { id: chainId } },
        )
      const client = await registry.load(owner, chain)
      registry.select(chainId)
      return client
    },
    load(owner, chain) {
      const key = keyOf(owner.address, chain.chain.id)
      const ready = state.clients.get(key)
      if (ready) return Promise.resolve(ready)
      const running = pending.get(key)
      if (running) return running
      if (state.errors.has(key)) {
        const errors = new Map(state.errors)
        errors.delete(key)
        set({ errors })
      }
      const promise = create(instance, { owner, chain }).then(
        (wallet) => {
          pending.delete(key)
          const client = smartWalletClient(instance, {
            owner,
            wallet,
            sponsored: chain.sponsored,
            switchChain: (id) => registry.switchChain(owner, id),
          })
          set({ clients: new Map(state.clients).set(key, client) })
          return client
        },
        (error: unknown) => {
          pending.delete(key)
          set({ errors: new Map(state.errors).set(key, error as Error) })
          throw error
        },
      )
      pending.set(key, promise)
      return promise
    },
  }
  registries.set(instance, registry)
  return registry
}
