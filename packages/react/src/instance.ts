import type { LatchkeyClient, LatchkeyError, LoginMethod, User } from '@latchkey/core'
import type { ConnectedExternalWallet } from '@latchkey/core/external'
import type { ErrorCode } from '@latchkey/protocol/errors'
import type { AppConfig } from '@latchkey/protocol/schemas'
import type { LatchkeyConfig } from './config.ts'
import type { ExternalWalletsHandle } from './external-wallets.ts'
import type { LoginOptions, ResumedLogin } from './login-options.ts'
import type { WalletScreenRequest } from './wallet-requests.ts'

export type { LoginOptions, ResumedLogin } from './login-options.ts'

// What the provider puts in context, as the rest of the package sees it: the
// instance's methods, its UI state and the login data they carry. The store
// (store.ts) implements it.

export interface LoginResult {
  user: User
  isNewUser: boolean
  /** True when `login()` was called while a user was already logged in. */
  wasAlreadyAuthenticated: boolean
  /** Null when the user was already logged in. */
  loginMethod: LoginMethod | null
}

export type LoginEvent =
  | { type: 'complete'; result: LoginResult }
  /** `error`: the failure itself where the flow has it, its message as the screen showed it. */
  | { type: 'error'; code: ErrorCode; error?: LatchkeyError }

/** The React layer's UI state: whether the modal is open and what it draws from. */
export interface UiState {
  open: boolean
  /** True once the modal has been asked for; until then its chunk is not loaded. */
  requested: boolean
  /** Changes on every `login()`, so each opening starts from the landing screen. */
  attempt: number
  loginOptions: LoginOptions
  /** Set while the modal shows a wallet screen instead of the login flow. */
  walletRequest: WalletScreenRequest | null
  /**
   * A wallet action waits for MFA: the modal shows the verification over
   * whatever it shows (opening for it if closed). Off with `mfa.noPromptOnMfaRequired`.
   */
  mfaOpen: boolean
  hostConfig: LatchkeyConfig
  appConfig: AppConfig | null
  appConfigError: LatchkeyError | null
}

/**
 * Everything the provider puts in context. It is created once per
 * client and never replaced (wagmi's `config` in context): components
 * subscribe to the pieces they read, so a state change never re-renders the
 * whole host app.
 */
export interface LatchkeyInstance {
  readonly client: LatchkeyClient
  getUiState(): UiState
  subscribeUi(listener: () => void): () => void
  setHostConfig(config: LatchkeyConfig): void
  /** Fetches the app's server configuration into UI state (again after a failure). */
  loadAppConfig(): Promise<void>
  /**
   * Opens the login modal. Refused with a warning while a non-guest user is
   * logged in (spec 01 §6); returns what happened.
   */
  openLogin(options?: LoginOptions): 'opened' | 'already-authenticated'
  /**
   * Opens the modal to link another login method to the logged-in user
   * (spec 01 "Login intent: link"); NOT_AUTHENTICATED when nobody is.
   */
  openLink(options?: Pick<LoginOptions, 'method'>): void
  /**
   * Opens the modal to replace the logged-in user's email or phone: the code
   * goes to the new one (spec 01 §5: old value, new value and code).
   */
  openUpdate(options: { method: 'email' | 'sms'; current: string }): void
  /**
   * Opens the modal on a redirect login's return (OAuth, Telegram) to show
   * its status and finish it, whether it logs in or links.
   */
  resumeLogin(resume: ResumedLogin): void
  /**
   * Opens a wallet screen (e.g. sign message) in the modal. Resolves with the
   * screen's result once the modal closes after success; closing it first
   * rejects with the EIP-1193 user rejection (4001). A newer request, or
   * `login()`, rejects a pending one the same way.
   */
  openWalletScreen<T>(request: WalletScreenRequest<T>): Promise<T>
  /** The request's operation succeeded; the promise resolves with `result` when the modal closes. */
  completeWalletScreen(request: WalletScreenRequest, result: unknown): void
  /**
   * What closing the open wallet screen now rejects with instead of the 4001
   * rejection (e.g. 'User exited before their wallet could be recovered'
   * while the sign screen asks for the password); null restores 4001.
   */
  setWalletScreenExit(request: WalletScreenRequest, error: unknown): void
  /**
   * Opens the connect-only wallet modal (spec 01 "Connect-only wallet
   * screen"): the user picks and connects an external wallet without logging
   * in. Resolves with the wallet; closing the modal first rejects with
   * WALLET_USER_REJECTED.
   */
  openConnectWallet(
    options?: Pick<LoginOptions, 'walletChainType' | 'wallet'>,
  ): Promise<ConnectedExternalWallet>
  /** The connect-only modal connected `wallet`: the pending `openConnectWallet` resolves. */
  completeConnectWallet(wallet: ConnectedExternalWallet): void
  /** External wallets (discovery, connections), loaded on first use. */
  readonly externalWallets: ExternalWalletsHandle
  /** Closes the modal; a wallet screen without a result is the user's rejection. */
  closeModal(): void
  /** Shows or hides the MFA verification (react/src/mfa-prompt.ts drives it). */
  setMfaOpen(open: boolean): void
  /** The element that had focus when the modal opened; focus returns there on close. */
  readonly opener: { current: HTMLElement | null }
  onLoginEvent(listener: (event: LoginEvent) => void): () => void
  emitLoginEvent(event: LoginEvent): void
}
