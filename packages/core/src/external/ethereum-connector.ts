import { WALLET_LOOKUP_ATTEMPTS, WALLET_LOOKUP_INTERVAL_MS } from '@latchkey/protocol/constants'
import { getAddress } from 'viem'
import { LatchkeyError } from '../errors.ts'
import { poll } from '../poll.ts'
import { caip2, switchEthereumChain, unsupportedChain } from './chains.ts'
import { withWalletTimeout } from './errors.ts'
import type { EIP1193Provider } from './ethereum-discovery.ts'
import type { ConnectedEthereumExternalWallet, ConnectorType, EvmChain } from './types.ts'
import type { WalletStore } from './wallet-store.ts'

/** What a connector needs from its manager. */
export interface ConnectorContext {
  store: WalletStore
  chains: readonly EvmChain[]
  /** The request timeout of a wallet, by its `walletClientType` (spec 01 §9: overridable per wallet). */
  rpcTimeoutMs(walletClientType: string): number
  now(): number
}

export interface EthereumWalletMeta {
  name: string
  icon: string | null
  slug: string
}

function ethereumWallet(
  ctx: ConnectorContext,
  key: string,
  provider: EIP1193Provider,
  address: string,
  chainId: number,
  meta: EthereumWalletMeta,
  connectorType: ConnectorType,
  connectedAt: number,
  onDisconnect?: () => Promise<void>,
): ConnectedEthereumExternalWallet {
  const timeoutMs = ctx.rpcTimeoutMs(meta.slug)
  return {
    type: 'ethereum',
    address: getAddress(address),
    chainId: caip2(chainId),
    connectedAt,
    walletClientType: meta.slug,
    connectorType,
    imported: false,
    meta: { name: meta.name, icon: meta.icon, id: key },
    rpcTimeoutMs: timeoutMs,
    getEthereumProvider: () => provider,
    switchChain: async (id: number) => {
      const chain = ctx.chains.find((c) => c.id === id)
      if (!chain) throw unsupportedChain(id)
      await switchEthereumChain(provider, chain, timeoutMs)
    },
    disconnect: async () => {
      ctx.store.remove('ethereum', key)
      await onDisconnect?.().catch(() => undefined)
    },
  }
}

/** Follows a connected provider: account and chain changes update the record, disconnect removes it. */
function follow(store: WalletStore, key: string, provider: EIP1193Provider) {
  const current = () =>
    store
      .getState()
      .wallets.find(
        (w): w is ConnectedEthereumExternalWallet => w.type === 'ethereum' && w.meta.id === key,
      )
  const onAccounts = (accounts: string[]) => {
    const wallet = current()
    if (!wallet) return
    if (!accounts?.length) return store.remove('ethereum', key)
    store.upsert({ ...wallet, address: getAddress(accounts[0] as string) })
  }
  const onChain = (chainId: string) => {
    const wallet = current()
    if (wallet) store.upsert({ ...wallet, chainId: caip2(Number(chainId)) })
  }
  const onDisconnect = () => store.remove('ethereum', key)
  store.stopFollowing(key)
  provider.on?.('accountsChanged', onAccounts as never)
  provider.on?.('chainChanged', onChain as never)
  provider.on?.('disconnect', onDisconnect as never)
  store.follow(key, () => {
    provider.removeListener?.('accountsChanged', onAccounts as never)
    provider.removeListener?.('chainChanged', onChain as never)
    provider.removeListener?.('disconnect', onDisconnect as never)
  })
}

const lookups = { intervalMs: WALLET_LOOKUP_INTERVAL_MS, attempts: WALLET_LOOKUP_ATTEMPTS }

/**
 * The wallet's first account (spec 01 §9: 10 lookups, 500 ms apart). The
 * first asks with `eth_requestAccounts` (the prompt; `eth_accounts` when
 * silent), the others with `eth_accounts`: some wallets (WalletConnect
 * sessions, smart wallets) fill their accounts a moment after approving.
 */
async function lookUpAccount(provider: EIP1193Provider, silent: boolean, timeoutMs: number) {
  let method = silent ? 'eth_accounts' : 'eth_requestAccounts'
  const account = await poll(async () => {
    const accounts = await withWalletTimeout(provider.request({ method }), timeoutMs)
    method = 'eth_accounts'
    return Array.isArray(accounts) && typeof accounts[0] === 'string' ? accounts[0] : undefined
  }, lookups)
  if (account === undefined) throw new LatchkeyError('WALLET_NO_ACCOUNTS')
  return account
}

/** The wallet's chain id from `eth_chainId` (spec 01 §9: 10 lookups, 500 ms apart). */
async function lookUpChainId(provider: EIP1193Provider, timeoutMs: number) {
  const chainId = await poll(async () => {
    const answer = await withWalletTimeout(provider.request({ method: 'eth_chainId' }), timeoutMs)
    const id =
      typeof answer === 'string' || typeof answer === 'number' ? Number(answer) : Number.NaN
    return Number.isSafeInteger(id) && id > 0 ? id : undefined
  }, lookups)
  if (chainId === undefined)
    throw new LatchkeyError('WALLET_LOGIN_FAILED', 'The wallet did not say which chain it is on')
  return chainId
}

/**
 * Connects an EIP-1193 provider (injected, WalletConnect, Coinbase Wallet):
 * asks for its accounts (`eth_accounts` when `silent`, no prompt) and chain,
 * stores the connection and follows the provider's events.
 */
export async function connectEthereum(
  ctx: ConnectorContext,
  key: string,
  provider: EIP1193Provider,
  meta: EthereumWalletMeta,
  connectorType: ConnectorType,
  {
    silent = false,
    onDisconnect,
    connectedAt,
    peerSlug,
  }: {
    silent?: boolean
    onDisconnect?: () => Promise<void>
    connectedAt?: number
    /** WalletConnect: the wallet app's slug, known once the connect request approved a session. */
    peerSlug?: () => string | null
  } = {},
): Promise<ConnectedEthereumExternalWallet> {
  const timeoutMs = ctx.rpcTimeoutMs(meta.slug)
  const address = await lookUpAccount(provider, silent, timeoutMs)
  const chainId = await lookUpChainId(provider, timeoutMs)
  const wallet = ethereumWallet(
    ctx,
    key,
    provider,
    address,
    chainId,
    { ...meta, slug: peerSlug?.() ?? meta.slug },
    connectorType,
    connectedAt ?? ctx.now(),
    onDisconnect,
  )
  ctx.store.upsert(wallet)
  ctx.store.setConnector(key, 'connected')
  follow(ctx.store, key, provider)
  return wallet
}
