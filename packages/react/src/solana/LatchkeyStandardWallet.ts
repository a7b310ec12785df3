import { embeddedWallets, ProviderRpcError } from '@latchkey/core'
import { providerErrors } from '@latchkey/protocol/errors'
import {
  SolanaSignAndSendTransaction,
  type SolanaSignAndSendTransactionFeature,
  type SolanaSignAndSendTransactionInput,
  SolanaSignMessage,
  type SolanaSignMessageFeature,
  type SolanaSignMessageInput,
  SolanaSignTransaction,
  type SolanaSignTransactionFeature,
  type SolanaSignTransactionInput,
  type SolanaTransactionVersion,
} from '@solana/wallet-standard-features'
import type { IdentifierString, Wallet, WalletAccount, WalletIcon } from '@wallet-standard/base'
import {
  StandardConnect,
  type StandardConnectFeature,
  type StandardConnectInput,
  StandardDisconnect,
  type StandardDisconnectFeature,
  StandardEvents,
  type StandardEventsChangeProperties,
  type StandardEventsFeature,
  type StandardEventsListeners,
} from '@wallet-standard/features'
import { arraysEqual, ReadonlyWalletAccount } from '@wallet-standard/wallet'
import { appSolanaClusters } from '../hooks/app-chains.ts'
import { runSolanaTransaction } from '../hooks/solana-transactions.ts'
import { signSolanaMessageWithScreen } from '../hooks/useSignSolanaMessage.ts'
import type { LatchkeyInstance } from '../store.ts'
import { firstSignature } from './first-signature.ts'
import { clusterChain, clusterOfChain, solanaPublicKey } from './standard-chains.ts'
import { connectEmbeddedSolana } from './standard-connect.ts'

/** The features the Latchkey wallet offers, by name (Wallet Standard). */
export type LatchkeyStandardFeatures = StandardConnectFeature &
  StandardDisconnectFeature &
  StandardEventsFeature &
  SolanaSignMessageFeature &
  SolanaSignTransactionFeature &
  SolanaSignAndSendTransactionFeature

const TRANSACTION_VERSIONS: readonly SolanaTransactionVersion[] = ['legacy', 0]
const ACCOUNT_FEATURES: IdentifierString[] = [
  SolanaSignAndSendTransaction,
  SolanaSignTransaction,
  SolanaSignMessage,
]

// A key on the Latchkey accent (24×24), for wallet lists.
const ICON_SVG =
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 24 24"><rect width="24" height="24" rx="6" fill="#6a6ff5"/><circle cx="9" cy="12" r="3.5" fill="none" stroke="#fff" stroke-width="2"/><path d="M12.5 12H19m-2 0v3" stroke="#fff" stroke-width="2" stroke-linecap="round"/></svg>'
export const LATCHKEY_WALLET_ICON: WalletIcon = `data:image/svg+xml;base64,${btoa(ICON_SVG)}`

/** EIP-1193 4900: there is no LatchkeyProvider on the page to answer. */
const disconnected = () =>
  new ProviderRpcError(providerErrors.disconnected.code, providerErrors.disconnected.message)
/** EIP-1193 4100: the app asked for an account it was not given by `connect`. */
const unauthorized = () =>
  new ProviderRpcError(providerErrors.unauthorized.code, providerErrors.unauthorized.message)

/**
 * The user's embedded Solana wallet as a Wallet Standard wallet called
 * "Latchkey" (docs/solana-wallet-standard.md). It holds no key: connecting
 * logs in through the modal, and every signature goes through the same
 * screens and enclave calls as `useSignSolanaMessage`, `useSignTransaction`
 * and `useSignAndSendTransaction`. One per page (register-wallet-standard.ts);
 * the mounted `LatchkeyProvider` attaches its instance.
 *
 * @example
 * const wallet = new LatchkeyStandardWallet()
 * const detach = wallet.attach(instance)
 * const { accounts } = await wallet.features['standard:connect'].connect()
 */
export class LatchkeyStandardWallet implements Wallet {
  readonly version = '1.0.0' as const
  // core's Solana wallet discovery leaves this name out of the login modal's wallet list.
  readonly name = 'Latchkey'
  readonly icon = LATCHKEY_WALLET_ICON
  readonly #listeners = new Set<StandardEventsListeners['change']>()
  readonly #features: LatchkeyStandardFeatures
  #instance: LatchkeyInstance | null = null
  /** The app called `connect` and the user has not logged out or disconnected since. */
  #connected = false
  #chains: IdentifierString[] = ['solana:mainnet']
  #accounts: ReadonlyWalletAccount[] = []

  constructor() {
    this.#features = {
      [StandardConnect]: { version: '1.0.0', connect: (input) => this.#connect(input) },
      [StandardDisconnect]: { version: '1.0.0', disconnect: async () => this.#disconnect() },
      [StandardEvents]: { version: '1.0.0', on: (event, listener) => this.#on(event, listener) },
      [SolanaSignMessage]: {
        version: '1.0.0',
        signMessage: (...inputs) => this.#each(inputs, (input) => this.#signMessage(input)),
      },
      [SolanaSignTransaction]: {
        version: '1.0.0',
        supportedTransactionVersions: TRANSACTION_VERSIONS,
        signTransaction: (...inputs) => this.#each(inputs, (input) => this.#sign(input)),
      },
      [SolanaSignAndSendTransaction]: {
        version: '1.0.0',
        supportedTransactionVersions: TRANSACTION_VERSIONS,
        signAndSendTransaction: (...inputs) =>
          this.#each(inputs, (input) => this.#signAndSend(input)),
      },
    }
  }

  get chains(): IdentifierString[] {
    return this.#chains.slice()
  }

  get accounts(): WalletAccount[] {
    return this.#accounts.slice()
  }

  get features(): LatchkeyStandardFeatures {
    return this.#features
  }

  /**
   * Answers through `instance` until the returned function detaches it (the
   * provider unmounting): then the accounts empty and requests reject with
   * EIP-1193 4900.
   */
  attach(instance: LatchkeyInstance): () => void {
    this.#instance = instance
    const offSession = instance.client.session.subscribe(this.#sync)
    const offUi = instance.subscribeUi(this.#sync)
    this.#sync()
    return () => {
      offSession()
      offUi()
      if (this.#instance !== instance) return
      this.#instance = null
      this.#connected = false
      this.#sync()
    }
  }

  /** Brings chains and accounts up to date with the app's clusters and the session; emits 'change'. */
  readonly #sync = () => {
    const instance = this.#instance
    const session = instance?.client.session.getState()
    // Restoring the session on page load: nothing is known yet.
    if (session?.status === 'loading') return
    // A logout ends what `connect` authorized (spec: accounts [] on logout).
    if (session?.status !== 'authenticated') this.#connected = false
    const chains = instance
      ? appSolanaClusters(instance.getUiState().hostConfig).map(clusterChain)
      : this.#chains
    const addresses = this.#connected
      ? embeddedWallets(session?.user ?? null, 'solana').map((w) => w.address)
      : []
    const change: { chains?: IdentifierString[]; accounts?: WalletAccount[] } = {}
    const chainsChanged = !arraysEqual(chains, this.#chains)
    if (chainsChanged) {
      this.#chains = chains
      change.chains = this.chains
    }
    const current = this.#accounts.map((account) => account.address)
    const addressesChanged = !arraysEqual(addresses, current)
    if (chainsChanged || addressesChanged) {
      this.#accounts = addresses.map(
        (address) =>
          new ReadonlyWalletAccount({
            address,
            publicKey: solanaPublicKey(address),
            chains,
            features: ACCOUNT_FEATURES,
            label: 'Latchkey embedded wallet',
          }),
      )
      if (addressesChanged || this.#accounts.length > 0) change.accounts = this.accounts
    }
    if (change.chains || change.accounts) this.#emit(change)
  }

  #emit(change: StandardEventsChangeProperties) {
    for (const listener of [...this.#listeners]) listener(change)
  }

  #on<E extends keyof StandardEventsListeners>(
    _event: E,
    listener: StandardEventsListeners[E],
  ): () => void {
    this.#listeners.add(listener)
    return () => this.#listeners.delete(listener)
  }

  #attached(): LatchkeyInstance {
    if (!this.#instance) throw disconnected()
    return this.#instance
  }

  async #connect(input?: StandardConnectInput) {
    const instance = this.#attached()
    if (!this.#connected || this.#accounts.length === 0) {
      const wallets = await connectEmbeddedSolana(instance, { silent: input?.silent === true })
      if (wallets.length > 0 && this.#instance === instance) {
        this.#connected = true
        this.#sync()
      }
    }
    return { accounts: this.accounts }
  }

  #disconnect() {
    this.#connected = false
    this.#sync()
  }

  /** The connected account a request names: the app may use only what `connect` gave it. */
  #account(account: WalletAccount): string {
    if (!this.#accounts.some((a) => a.address === account.address)) throw unauthorized()
    return account.address
  }

  /** Wallet Standard inputs are answered in order, each through its own screen. */
  async #each<I, O>(inputs: readonly I[], run: (input: I) => Promise<O>): Promise<O[]> {
    const outputs: O[] = []
    for (const input of inputs) outputs.push(await run(input))
    return outputs
  }

  #cluster(instance: LatchkeyInstance, chain: string | undefined): string | undefined {
    if (chain === undefined) return undefined
    return clusterOfChain(appSolanaClusters(instance.getUiState().hostConfig), chain)
  }

  async #signMessage({ account, message }: SolanaSignMessageInput) {
    const instance = this.#attached()
    const address = this.#account(account)
    const { signature } = await signSolanaMessageWithScreen(instance, { message }, { address })
    return { signedMessage: message, signature, signatureType: 'ed25519' as const }
  }

  async #sign({ account, transaction, chain }: SolanaSignTransactionInput) {
    const instance = this.#attached()
    const parameters = {
      transaction,
      address: this.#account(account),
      cluster: this.#cluster(instance, chain),
    }
    const { signedTransaction } = await runSolanaTransaction(instance, parameters, 'sign')
    return { signedTransaction }
  }

  async #signAndSend({ account, transaction, chain }: SolanaSignAndSendTransactionInput) {
    const instance = this.#attached()
    const parameters = {
      transaction,
      address: this.#account(account),
      cluster: this.#cluster(instance, chain),
    }
    const { signedTransaction } = await runSolanaTransaction(instance, parameters, 'send')
    return { signature: firstSignature(signedTransaction) }
  }
}
