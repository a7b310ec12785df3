import { type EmbeddedWalletAccount, embeddedWallets, LatchkeyError } from '@latchkey/core'
import { useCallback, useEffect, useMemo, useSyncExternalStore } from 'react'
import { useLatchkeyInstance, useUiState } from '../context.ts'
import {
  currentSmartWalletChains,
  type SmartWalletChain,
  warnUnsupportedSmartWalletChains,
} from '../smart-wallets/chains.ts'
import type { SmartWalletClient } from '../smart-wallets/client.ts'
import { createSmartWallet } from '../smart-wallets/create.ts'
import { keyOf, smartWalletsRegistry } from '../smart-wallets/registry.ts'
import { useSession } from './useSession.ts'

export type {
  SmartWalletCallsResult,
  SmartWalletClient,
  SmartWalletSignOptions,
  SmartWalletTransaction,
  SmartWalletTransactionOptions,
} from '../smart-wallets/client.ts'

export interface UseSmartWalletsReturnType {
  /**
   * The user's smart wallet on the current chain (the host's `defaultChain`
   * when it has smart wallets, else the first such chain; `switchChain`
   * changes it). Undefined until it is ready, while nobody is logged in,
   * without an embedded Ethereum wallet, or when the app has no smart wallets.
   */
  client?: SmartWalletClient
  /** Why the current chain's client could not be built (asking again retries). */
  error?: Error
  /** The smart wallet on another of the app's smart-wallet chains; UNSUPPORTED_CHAIN for any other. */
  getClientForChain(chain: { id: number }): Promise<SmartWalletClient>
}

/**
 * The user's smart wallet (issue 24: an ERC-4337 account owned by their
 * embedded Ethereum wallet, or that wallet upgraded by EIP-7702), on the
 * chains the app turned smart wallets on for and the host lists in
 * `chains`. `sendTransaction` and `sendCalls` open the confirm screen — with
 * 'Sponsored' when the app pays the gas; a batch is confirmed call by call
 * ('(n / m)') and goes out as one user operation — and `signMessage` /
 * `signTypedData` the sign screen, returning ERC-1271 (ERC-6492 before the
 * account is deployed) signatures. Warns once when a smart-wallet chain is
 * outside the spec's supported list.
 *
 * @example
 * const { client } = useSmartWallets()
 * const hash = await client?.sendTransaction({ to: client.account.address, value: 0n })
 * const { transactionHash } = await client!.sendCalls([{ to: a, data: approve }, { to: b, data: swap }])
 */
export function useSmartWallets(): UseSmartWalletsReturnType {
  const instance = useLatchkeyInstance()
  const registry = smartWalletsRegistry(instance, createSmartWallet)
  const state = useSyncExternalStore(registry.subscribe, registry.getState, registry.getState)
  const { appConfig, hostConfig } = useUiState(instance)
  const session = useSession(instance.client)
  const config = appConfig?.smart_wallet_config

  useEffect(() => warnUnsupportedSmartWalletChains(config), [config])

  // biome-ignore lint/correctness/useExhaustiveDependencies: recomputed when either config changes
  const chains = useMemo(
    () => currentSmartWalletChains(instance),
    [instance, appConfig, hostConfig],
  )
  const owner: EmbeddedWalletAccount | undefined =
    session.status === 'authenticated' ? embeddedWallets(session.user, 'ethereum')[0] : undefined
  const current: SmartWalletChain | undefined =
    chains.find((c) => c.chain.id === state.chainId) ?? chains[0]
  const key = owner && current ? keyOf(owner.address, current.chain.id) : null

  useEffect(() => {
    if (!owner || !current) return
    // Idempotent per owner and chain; failures land in the registry's errors (`error` below).
    registry.load(owner, current).catch(() => {})
  }, [registry, owner, current])

  const getClientForChain = useCallback(
    async ({ id }: { id: number }) => {
      const chain = currentSmartWalletChains(instance).find((c) => c.chain.id === id)
      if (!chain)
        throw new LatchkeyError(
          'UNSUPPORTED_CHAIN',
          `Chain ID ${id} has no smart wallet in this app.`,
          { details: { id } },
        )
      const { status, user } = instance.client.session.getState()
      if (status !== 'authenticated' || !user) throw new LatchkeyError('NOT_AUTHENTICATED')
      const wallet = embeddedWallets(user, 'ethereum')[0]
      if (!wallet) throw new LatchkeyError('EMBEDDED_WALLET_NOT_FOUND')
      return registry.load(wallet, chain)
    },
    [instance, registry],
  )

  return {
    client: key ? state.clients.get(key) : undefined,
    error: key ? state.errors.get(key) : undefined,
    getClientForChain,
  }
}
