import { type Address, getAddress, numberToHex } from 'viem'
import { createConnector } from 'wagmi'
import {
  chainNotConfigured,
  isUnknownChain,
  toConnectorError,
  toProviderError,
  toSwitchChainError,
} from './errors.ts'

/** The connector type of every Latchkey connector (`connector.type`). */
export const LATCHKEY_CONNECTOR_TYPE = 'latchkey' as const

/** An EIP-1193 provider: an embedded wallet's, or a connected external wallet's. */
export interface LatchkeyEthereumProvider {
  request(args: { method: string; params?: unknown }): Promise<unknown>
  on?(event: string, listener: (...args: never[]) => void): unknown
  removeListener?(event: string, listener: (...args: never[]) => void): unknown
}

/**
 * What the connector needs of a wallet: one of `useWallets().wallets` from
 * `@latchkey/react` (an embedded wallet or a connected external one) fits.
 */
export interface LatchkeyWagmiWallet {
  address: string
  /** `embedded` for Latchkey's own wallets; `injected`, `wallet_connect`… for external ones. */
  connectorType: string
  walletClientType: string
  /** External wallets: their name and icon (EIP-6963). */
  meta?: { name: string; icon: string | null; id: string }
  getEthereumProvider(): LatchkeyEthereumProvider
}

export interface LatchkeyConnectorParameters {
  /** The wallet wagmi acts through. */
  wallet: LatchkeyWagmiWallet
}

/** The EIP-1193 provider the connector hands to wagmi (and viem under it). */
export type LatchkeyConnectorProvider = Pick<LatchkeyEthereumProvider, 'request'>

const EMBEDDED_NAME = 'Latchkey embedded wallet'

/**
 * A wagmi connector for one Latchkey wallet: an embedded wallet (signing in
 * the enclave, transactions through the confirm screen) or an external wallet
 * the user connected through Latchkey. `<LatchkeyWagmiProvider>` creates and
 * connects these for the active wallet; use this directly when the host
 * drives wagmi itself. Chains are the wagmi config's: `connect` moves an
 * embedded wallet onto the first of them when it is on another (an external
 * wallet only onto a chain `connect` names), and `switchChain` to a
 * chain the config does not list fails (SwitchChainError) before the wallet
 * is asked. Provider errors become wagmi's: 4001 UserRejectedRequestError,
 * 4902 SwitchChainError.
 *
 * @example
 * const { wallets } = useWallets()
 * await connect(wagmiConfig, { connector: latchkeyConnector({ wallet: wallets[0] }) })
 * const signature = await signMessage(wagmiConfig, { message: 'hello' })
 */
export function latchkeyConnector({ wallet }: LatchkeyConnectorParameters) {
  const embedded = wallet.connectorType === 'embedded'
  type Listener = (...args: never[]) => void

  return createConnector<LatchkeyConnectorProvider, { wallet: LatchkeyWagmiWallet }>((config) => {
    let provider: LatchkeyEthereumProvider | undefined
    let connected = false
    let listeners: Array<[string, Listener]> = []

    // Latchkey's rejection codes reach viem as 4001 (viem maps numeric codes to its errors).
    const wrapped: LatchkeyConnectorProvider = {
      request: async (args) => {
        try {
          return await inner().request(args)
        } catch (error) {
          throw toProviderError(error)
        }
      },
    }
    function inner(): LatchkeyEthereumProvider {
      provider ??= wallet.getEthereumProvider()
      return provider
    }

    const chainIdOf = async () => Number(await wrapped.request({ method: 'eth_chainId' }))
    const accountsOf = async () => {
      const accounts = (await wrapped.request({ method: 'eth_accounts' })) as string[]
      return accounts.map((account) => getAddress(account))
    }
    const listen = (event: string, listener: Listener) => {
      const source = inner()
      if (!source.on) return
      source.on(event, listener)
      listeners.push([event, listener])
    }
    const unlisten = () => {
      for (const [event, listener] of listeners) inner().removeListener?.(event, listener)
      listeners = []
    }

    return {
      id: embedded ? 'latchkey' : `latchkey:${wallet.meta?.id ?? wallet.walletClientType}`,
      name: embedded ? EMBEDDED_NAME : (wallet.meta?.name ?? wallet.walletClientType),
      icon: wallet.meta?.icon ?? undefined,
      type: LATCHKEY_CONNECTOR_TYPE,
      wallet,

      async connect({ chainId, withCapabilities } = {}) {
        try {
          let accounts = await accountsOf()
          // An external wallet that forgot the site asks the user again.
          if (accounts.length === 0)
            accounts = ((await wrapped.request({ method: 'eth_requestAccounts' })) as string[]).map(
              (account) => getAddress(account),
            )
          let current = await chainIdOf()
          // An asked chain moves the wallet. Unasked, the embedded wallet moves onto the
          // config's first chain when it is on another; a user's external wallet is never
          // switched just by connecting (as wagmi's injected connector): wagmi shows the chain.
          const unlisted = !config.chains.some((c) => c.id === current)
          const target = chainId ?? (embedded && unlisted ? config.chains[0].id : undefined)
          if (target !== undefined && target !== current)
            current = (await this.switchChain!({ chainId: target })).id
          if (!listeners.length) {
            listen('accountsChanged', this.onAccountsChanged.bind(this) as Listener)
            listen('chainChanged', this.onChainChanged.bind(this) as Listener)
            listen('disconnect', this.onDisconnect.bind(this) as Listener)
          }
          connected = true
          return {
            accounts: (withCapabilities
              ? accounts.map((address) => ({ address, capabilities: {} }))
              : accounts) as never,
            chainId: current,
          }
        } catch (error) {
          throw toConnectorError(error)
        }
      },

      async disconnect() {
        // Only wagmi lets go: the wallet stays connected to Latchkey (and the user logged in).
        unlisten()
        connected = false
      },

      getAccounts: accountsOf,
      getChainId: chainIdOf,
      async getProvider() {
        return wrapped
      },

      async isAuthorized() {
        if (!connected) return false
        try {
          return (await accountsOf()).length > 0
        } catch {
          return false
        }
      },

      async switchChain({ chainId, addEthereumChainParameter }) {
        const chain = config.chains.find((c) => c.id === chainId)
        if (!chain) throw chainNotConfigured(chainId)
        const params = [{ chainId: numberToHex(chainId) }]
        try {
          try {
            await wrapped.request({ method: 'wallet_switchEthereumChain', params })
          } catch (error) {
            // An external wallet that does not know the chain yet is offered it (EIP-3085);
            // the embedded wallet has only the Latchkey app's chains (its `chains` config).
            if (embedded || !isUnknownChain(error)) throw error
            await wrapped.request({
              method: 'wallet_addEthereumChain',
              params: [
                {
                  chainId: numberToHex(chainId),
                  chainName: addEthereumChainParameter?.chainName ?? chain.name,
                  nativeCurrency: addEthereumChainParameter?.nativeCurrency ?? chain.nativeCurrency,
                  rpcUrls: addEthereumChainParameter?.rpcUrls ?? [chain.rpcUrls.default.http[0]],
                  blockExplorerUrls:
                    addEthereumChainParameter?.blockExplorerUrls ??
                    (chain.blockExplorers ? [chain.blockExplorers.default.url] : undefined),
                },
              ],
            })
            await wrapped.request({ method: 'wallet_switchEthereumChain', params })
          }
        } catch (error) {
          throw toSwitchChainError(error)
        }
        // The embedded provider emits no events: wagmi learns the chain from us.
        config.emitter.emit('change', { chainId })
        return chain
      },

      onAccountsChanged(accounts) {
        if (accounts.length === 0) this.onDisconnect()
        else
          config.emitter.emit('change', {
            accounts: accounts.map((account) => getAddress(account)) as Address[],
          })
      },
      onChainChanged(chain) {
        config.emitter.emit('change', { chainId: Number(chain) })
      },
      onDisconnect() {
        unlisten()
        connected = false
        config.emitter.emit('disconnect')
      },
    }
  })
}
