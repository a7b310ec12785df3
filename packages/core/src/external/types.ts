import type { ChainType } from '@latchkey/protocol/schemas'
import type { EIP1193Provider } from './ethereum-discovery.ts'

export type { ConnectorType } from '@latchkey/protocol/constants'

/** The parts of a viem `Chain` Latchkey uses: pass viem's chain objects (`mainnet`, `base`…). */
export interface EvmChain {
  id: number
  name: string
  nativeCurrency: { name: string; symbol: string; decimals: number }
  rpcUrls: { default: { http: readonly string[] } }
  blockExplorers?: { default: { url: string } }
}

/** `walletChainType` of the connect list (spec 01 §3 appearance). */
export type WalletChainType = 'ethereum-only' | 'solana-only' | 'ethereum-and-solana'

/** What the user sees and what is common to both chains (spec 01 §3 "Connected wallet"). */
interface ConnectedWalletBase {
  address: string
  /** Unix ms. */
  connectedAt: number
  walletClientType: string
  connectorType: import('@latchkey/protocol/constants').ConnectorType
  imported: false
  meta: { name: string; icon: string | null; id: string }
  /**
   * How long Latchkey waits for this wallet to answer a request (spec 01 §9:
   * default 120 s, overridable per wallet); absent on wallets built elsewhere.
   */
  rpcTimeoutMs?: number
  /** Forgets the connection (and asks the wallet to disconnect where it can). */
  disconnect(): Promise<void>
}

/** An external Ethereum wallet: use its EIP-1193 provider with viem, ethers, wagmi… */
export interface ConnectedEthereumExternalWallet extends ConnectedWalletBase {
  type: 'ethereum'
  /** CAIP-2, e.g. `eip155:1`. */
  chainId: string
  getEthereumProvider(): EIP1193Provider
  /** Switches the wallet's chain; adds it first when the wallet answers 4902. */
  switchChain(chainId: number): Promise<void>
}

/** The sign-in input of Solana's `solana:signIn` (camelCase, per the Wallet Standard). */
export interface SolanaSignInInput {
  domain?: string
  address?: string
  statement?: string
  uri?: string
  version?: string
  chainId?: string
  nonce?: string
  issuedAt?: string
  expirationTime?: string
}

/** An external Solana wallet (Wallet Standard): signs messages and, where it can, sign-ins and transactions. */
export interface ConnectedSolanaExternalWallet extends ConnectedWalletBase {
  type: 'solana'
  chainId: null
  signMessage(message: Uint8Array): Promise<Uint8Array>
  /** Present when the wallet has `solana:signIn`. */
  signIn?(input: SolanaSignInInput): Promise<{ signedMessage: Uint8Array; signature: Uint8Array }>
  /** Present when the wallet has `solana:signTransaction`; returns the signed wire transaction. */
  signTransaction?(transaction: Uint8Array): Promise<Uint8Array>
}

export type ConnectedExternalWallet =
  | ConnectedEthereumExternalWallet
  | ConnectedSolanaExternalWallet

/** How a row of the wallet list connects. */
export type WalletOptionKind =
  | 'injected'
  | 'wallet_standard'
  | 'wallet_connect'
  | 'coinbase_wallet'
  | 'not_installed'

/** A row of the connect list: a detected wallet, a connectable service, or one to install. */
export interface WalletOption {
  /** Unique row key (`eip6963:{uuid}`, `standard:{name}`, `wallet_connect`, `install:{slug}`…). */
  key: string
  /** The wallet's slug (`walletClientType`). */
  id: string
  name: string
  icon: string | null
  chainTypes: ChainType[]
  installed: boolean
  kind: WalletOptionKind
  homepage?: string
  extensionUrl?: string
  mobileBrowseUrl?: string
  appStoreUrl?: string
}

/** A stored connection record (spec 01 §3): survives reloads so wallets reconnect silently. */
export interface StoredConnection {
  key: string
  address: string
  chainType: ChainType
  connectorType: import('@latchkey/protocol/constants').ConnectorType
  walletClientType: string
  connectedAt: number
}

/** Connector lifecycle (spec 01 §4). */
export type ConnectorState = 'created' | 'initialized' | 'connected' | 'disconnected'
