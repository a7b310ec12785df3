import {
  type CreateWalletParameters,
  createEmbeddedEthereumProvider,
  createWallet,
  type EmbeddedEthereumProvider,
  type EmbeddedWalletAccount,
  embeddedWallets,
  type ImportWalletParameters,
  importWallet,
  signSolanaMessage,
} from '@latchkey/core'
import type {
  ConnectedEthereumExternalWallet,
  ConnectedSolanaExternalWallet,
} from '@latchkey/core/external'
import { useCallback, useEffect, useMemo, useSyncExternalStore } from 'react'
import type { Hex } from 'viem'
import { useLatchkeyInstance } from '../context.ts'
import type { LatchkeyInstance } from '../store.ts'
import {
  appChains,
  ethereumTransactionRequest,
  requestEthereumTransaction,
} from './ethereum-transactions.ts'
import { runSolanaTransaction } from './solana-transactions.ts'
import { useSession } from './useSession.ts'

/** How a wallet comes back on a new device (the recovery status users ask for). */
export interface WalletRecovery {
  /** True for every recovery method: no embedded wallet exists without a recovery share. */
  recoverable: boolean
  method: EmbeddedWalletAccount['recoveryMethod']
  /** Words for it, e.g. "Automatic (kept by the app's Latchkey server)". */
  description: string
}

const recoveryDescriptions: Record<EmbeddedWalletAccount['recoveryMethod'], string> = {
  latchkey: 'Automatic: recovered on a new device after login',
  'user-passcode': 'Password: recovered on a new device with your password',
  'google-drive': 'Google Drive: recovered with your Google account',
  icloud: 'iCloud: recovered with your Apple account',
}

export interface ConnectedEthereumWallet {
  type: 'ethereum'
  address: string
  walletIndex: number | null
  imported: boolean
  walletClientType: 'latchkey'
  connectorType: 'embedded'
  recovery: WalletRecovery
  /** The wallet's EIP-1193 provider; signing happens in the enclave. */
  getEthereumProvider(): EmbeddedEthereumProvider
  /** Switches the provider to one of the app's `chains` (4902 for another). */
  switchChain(chainId: number): Promise<void>
}

export interface ConnectedSolanaWallet {
  type: 'solana'
  address: string
  walletIndex: number | null
  imported: boolean
  walletClientType: 'latchkey'
  connectorType: 'embedded'
  recovery: WalletRecovery
  /** Signs a message (ed25519) in the enclave; resolves to the 64-byte signature. */
  signMessage(message: Uint8Array): Promise<Uint8Array>
  /**
   * Signs a wire transaction after the user approves it on the Solana
   * confirm screen; resolves to the signed wire transaction.
   */
  signTransaction(transaction: Uint8Array): Promise<Uint8Array>
  /**
   * Signs, sends and confirms a wire transaction after the user approves it
   * on the confirm screen, on `cluster` (one of the app's `solanaClusters`,
   * by name; default the first); resolves to its base58 signature.
   */
  signAndSendTransaction(
    transaction: Uint8Array,
    options?: { cluster?: string },
  ): Promise<{ signature: string }>
}

const recoveryOf = (wallet: EmbeddedWalletAccount): WalletRecovery => ({
  recoverable: true,
  method: wallet.recoveryMethod,
  description: recoveryDescriptions[wallet.recoveryMethod] ?? wallet.recoveryMethod,
})

/**
 * An embedded wallet's EIP-1193 provider on the app's chains: its
 * `eth_sendTransaction` / `eth_signTransaction` open the confirm screen.
 */
function embeddedProvider(instance: LatchkeyInstance, wallet: EmbeddedWalletAccount) {
  // Read on each call: the app's configuration can change after the wallet list is built.
  const config = () => appChains(instance.getUiState().hostConfig)
  return createEmbeddedEthereumProvider(instance.client, wallet, {
    chains: () => config().chains,
    chainId: () => config().defaultChain.id,
    async onTransaction({ method, input, chain }) {
      const mode = method === 'eth_sendTransaction' ? 'send' : 'sign'
      const request = ethereumTransactionRequest(instance, wallet, {
        chain,
        requests: [input],
        mode,
        uiOptions: {},
      })
      const [step] = await requestEthereumTransaction(instance, request)
      return (mode === 'send' ? step?.hash : step?.signedTransaction) as Hex
    },
  })
}

/** Connected external wallets of one chain type (restored from storage on first use). */
function useExternalWallets<T extends 'ethereum' | 'solana'>(
  chainType: T,
): Array<T extends 'ethereum' ? ConnectedEthereumExternalWallet : ConnectedSolanaExternalWallet> {
  const { externalWallets } = useLatchkeyInstance()
  useEffect(() => externalWallets.restore(), [externalWallets])
  const state = useSyncExternalStore(
    externalWallets.subscribe,
    externalWallets.getState,
    externalWallets.getState,
  )
  return useMemo(
    () =>
      (state?.wallets ?? []).filter((w) => w.type === chainType) as Array<
        T extends 'ethereum' ? ConnectedEthereumExternalWallet : ConnectedSolanaExternalWallet
      >,
    [state, chainType],
  )
}

/**
 * The user's Ethereum wallets: embedded ones (each with an EIP-1193 provider
 * and its recovery status), then the external wallets connected in this
 * browser (`connectorType` other than `embedded`: MetaMask, WalletConnect…).
 *
 * @example
 * const { wallets } = useWallets()
 * const provider = wallets[0]?.getEthereumProvider()
 * const signature = await provider?.request({ method: 'personal_sign', params: ['0x68656c6c6f', wallets[0].address] })
 */
export function useWallets(): {
  ready: boolean
  wallets: Array<ConnectedEthereumWallet | ConnectedEthereumExternalWallet>
} {
  const instance = useLatchkeyInstance()
  const { client } = instance
  const session = useSession(client)
  const external = useExternalWallets('ethereum')
  const embedded = useMemo(
    () =>
      embeddedWallets(session.user, 'ethereum').map((wallet): ConnectedEthereumWallet => {
        // One provider per wallet: switchChain and the provider share the current chain.
        const provider = embeddedProvider(instance, wallet)
        return {
          type: 'ethereum',
          address: wallet.address,
          walletIndex: wallet.walletIndex,
          imported: wallet.imported,
          walletClientType: 'latchkey',
          connectorType: 'embedded',
          recovery: recoveryOf(wallet),
          getEthereumProvider: () => provider,
          switchChain: async (chainId) => {
            const hex = `0x${chainId.toString(16)}`
            await provider.request({
              method: 'wallet_switchEthereumChain',
              params: [{ chainId: hex }],
            })
          },
        }
      }),
    [instance, session.user],
  )
  const wallets = useMemo(() => [...embedded, ...external], [embedded, external])
  return { ready: session.status !== 'loading', wallets }
}

/**
 * The user's Solana wallets: embedded ones (with `signMessage`,
 * `signTransaction` and `signAndSendTransaction` through the confirm screen,
 * and their recovery status), then external Wallet Standard wallets connected in this
 * browser (Phantom, Solflare…).
 */
export function useSolanaWallets(): {
  ready: boolean
  wallets: Array<ConnectedSolanaWallet | ConnectedSolanaExternalWallet>
} {
  const instance = useLatchkeyInstance()
  const { client } = instance
  const session = useSession(client)
  const external = useExternalWallets('solana')
  const embedded = useMemo(
    () =>
      embeddedWallets(session.user, 'solana').map(
        (wallet): ConnectedSolanaWallet => ({
          type: 'solana',
          address: wallet.address,
          walletIndex: wallet.walletIndex,
          imported: wallet.imported,
          walletClientType: 'latchkey',
          connectorType: 'embedded',
          recovery: recoveryOf(wallet),
          signMessage: (message) => signSolanaMessage(client, wallet, message),
          signTransaction: async (transaction) => {
            const parameters = { transaction, address: wallet.address }
            return (await runSolanaTransaction(instance, parameters, 'sign')).signedTransaction
          },
          signAndSendTransaction: async (transaction, options = {}) => {
            const parameters = { transaction, address: wallet.address, cluster: options.cluster }
            const { signature } = await runSolanaTransaction(instance, parameters, 'send')
            return { signature: signature as string }
          },
        }),
      ),
    [instance, client, session.user],
  )
  const wallets = useMemo(() => [...embedded, ...external], [embedded, external])
  return { ready: session.status !== 'loading', wallets }
}

/**
 * Creates embedded wallets: `createWallet()` for the first Ethereum wallet,
 * `createWallet({ createAdditional: true })` for the next index,
 * `createWallet({ chainType: 'solana' })` for Solana.
 */
export function useCreateWallet(): {
  createWallet(parameters?: CreateWalletParameters): Promise<EmbeddedWalletAccount>
} {
  const { client } = useLatchkeyInstance()
  return {
    createWallet: useCallback(
      (parameters?: CreateWalletParameters) => createWallet(client, parameters),
      [client],
    ),
  }
}

/**
 * Imports a private key as an embedded wallet (`imported: true`): the enclave
 * splits it into its own shares; the key is never stored by the host.
 *
 * @example
 * const { importWallet } = useImportWallet()
 * await importWallet({ privateKey: '0x…' })
 */
export function useImportWallet(): {
  importWallet(parameters: ImportWalletParameters): Promise<EmbeddedWalletAccount>
} {
  const { client } = useLatchkeyInstance()
  return {
    importWallet: useCallback(
      (parameters: ImportWalletParameters) => importWallet(client, parameters),
      [client],
    ),
  }
}
