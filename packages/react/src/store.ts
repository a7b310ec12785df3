import {
  type LatchkeyClient,
  LatchkeyError,
  type LoginMethod,
  type OAuthReturn,
  type PasskeyAccount,
  ProviderRpcError,
  type TelegramProof,
  type User,
} from '@latchkey/core'
import type { ConnectedExternalWallet } from '@latchkey/core/external'
import { type ErrorCode, providerErrors } from '@latchkey/protocol/errors'
import type { AppConfig, CloudRecoveryProvider, RecoveryMethod } from '@latchkey/protocol/schemas'
import type { LatchkeyConfig } from './config.ts'
import type { CreateWalletsRequest } from './create-on-login.ts'
import { createExternalWalletsHandle, type ExternalWalletsHandle } from './external-wallets.ts'
import type { TypedData } from './hooks/useSignTypedData.ts'

/** "Login data" of spec 01 §3: what a `login()` call may ask of the modal. */
export interface LoginOptions {
  /** Pre-fills the email input, or the phone input (E.164). */
  prefill?: { type: 'email' | 'phone'; value: string }
  /** Restrict this login to existing users (mode `no-signup`). */
  disableSignup?: boolean
  /**
   * Link a method to the logged-in user (`openLink`), or replace their email
   * or phone (`openUpdate`), instead of logging in.
   */
  intent?: 'login' | 'link' | 'update'
  /** Intent 'update': the address or number being replaced. */
  current?: string
  /** Open straight on this method's input or screen. */
  method?: 'email' | 'sms' | 'wallet' | 'farcaster' | 'passkey'
  /** The connect-only wallet modal (no login): see `openConnectWallet`. */
  connectOnly?: boolean
  /** Which external wallets to list (overrides `appearance.walletChainType`). */
  walletChainType?: import('@latchkey/core/external').WalletChainType
  /** A login that left the page (OAuth, Telegram) and came back to be finished in the modal. */
  resume?: ResumedLogin
}

/** A redirect login back on the page: what the modal finishes. */
export type ResumedLogin =
  | { kind: 'oauth'; ret: OAuthReturn }
  | { kind: 'telegram'; proof: TelegramProof; intent: 'login' | 'link'; disableSignup: boolean }

export interface LoginResult {
  user: User
  isNewUser: boolean
  /** True when `login()` was called while a user was already logged in. */
  wasAlreadyAuthenticated: boolean
  /** Null when the user was already logged in. */
  loginMethod: LoginMethod | null
}

/** `uiOptions` of spec 03's "Sign message request": overrides of the screen's defaults. */
export interface SignMessageUiOptions {
  /** Default 'Sign message'. */
  title?: string
  /** Default 'Signing this message will not cost you any fees.' */
  description?: string
  /** Default 'Sign and continue'. */
  buttonText?: string
  /** Drawn above the title. */
  iconUrl?: string
  /** Offer a 'Not now' button. Default false (the close button is always there). */
  isCancellable?: boolean
  /** False signs at once, without the screen. Default true. */
  showWalletUIs?: boolean
}

/** What the sign-message screen shows, per signing method. */
export type SignMessagePayload =
  | { method: 'personal_sign'; data: string }
  | { method: 'eth_signTypedData_v4'; data: TypedData }
  | { method: 'solana_signMessage'; data: Uint8Array }

/**
 * A wallet screen opened outside the login flow: what it shows, and the
 * operation its confirm button runs (core does the work; the screen only
 * calls it).
 */
export type WalletScreenRequest<T = unknown> =
  | SignMessageRequest<T>
  | SetPasswordRequest
  | RecoverWalletRequest
  | ExportWalletRequest
  | SecureAccountRequest
  | CloudRecoveryRequest
  | CreateWalletsRequest
  | ManagePasskeysRequest
  | import('./hooks/useDeleteAccount.ts').DeleteAccountRequest

/**
 * Spec 02 "Passkey management": the user's passkeys (2 shown, then 'View
 * all'), unlink, 'Add new passkey' (up to 5), 'Passkeys updated' and Done.
 */
export interface ManagePasskeysRequest {
  screen: 'passkeys'
  /** The user's passkeys when the screen opens; it follows the users `link` / `unlink` return. */
  passkeys: PasskeyAccount[]
  /** 'Add new passkey': core `linkPasskey` (the browser's prompt, then the server). */
  link(): Promise<User>
  /** Unlink: core `unlinkPasskey`. */
  unlink(credentialId: string): Promise<User>
}

/** A recovery method the user can pick on 'Secure your account' / 'Update backup method'. */
export type RecoveryOption = 'google-drive' | 'icloud' | 'user-passcode' | 'latchkey'

/**
 * Spec 02 "Secure your account" / "Update backup method": the user picks how
 * the wallet is recovered on a new device. Each choice opens its own flow
 * (password wizard, provider consent, 'Automatically secure your account').
 */
export interface SecureAccountRequest {
  screen: 'secure-account'
  /** 'secure': no user-owned method yet; 'update': change the current one. */
  mode: 'secure' | 'update'
  /** The wallet's method now (null while creating); a cloud one is not offered again. */
  currentMethod: RecoveryMethod | null
  /** What to offer, in order. */
  options: RecoveryOption[]
  /** The password wizard's 'Set Password'. */
  setPassword(password: string): Promise<unknown>
  /** 'Automatically secure your account' → Confirm. */
  setAutomatic(): Promise<unknown>
  /** Google Drive / iCloud: leaves for the provider's consent. */
  startConsent(provider: CloudRecoveryProvider): Promise<void>
  /** Started by the app (creation on login): no Cancel in the wizard, no way back. */
  automatic?: boolean
}

/**
 * Spec 02 "Confirm-identity screen and progress screen for Google Drive or
 * iCloud": before the redirect it asks to continue to the provider; after the
 * return it runs the backup or recovery, shows success for 1.4 s (or the
 * wallet-created greeting), or '{Recovery|Back up} with {provider}
 * unsuccessful' with Try again.
 */
export interface CloudRecoveryRequest {
  screen: 'cloud-recovery'
  provider: CloudRecoveryProvider
  action: 'backup' | 'recover'
  /** Continue / Try again: leaves for the provider's consent. */
  startConsent(): Promise<void>
  /** Set once the consent came back: the backup or recovery to run. */
  run?: () => Promise<unknown>
  /** The consent came back refused (denied, state mismatch). */
  failure?: ErrorCode
  /** After success, greet as the post-login wallet step does instead of closing after 1.4 s. */
  greeting?: { isNewUser: boolean; appName: string | null }
}

export type SignMessageRequest<T = unknown> = {
  screen: 'sign-message'
  address: string
  uiOptions: SignMessageUiOptions
  sign(): Promise<T>
  /** The signing wallet's secret. */
  entropyId: string
  /** Recovers the wallet with its password when `sign()` fails with RECOVERY_REQUIRED. */
  recover?(password: string): Promise<void>
  /** A cloud-backed wallet on a new device: leaves for the provider's consent. */
  startCloudRecovery?(provider: CloudRecoveryProvider): Promise<void>
} & SignMessagePayload

/** Spec 02 "Password wizard": create, save, confirm, finalize, done. */
export interface SetPasswordRequest {
  screen: 'set-password'
  /** Runs on 'Set Password' (core `setRecoveryPassword`). */
  setPassword(password: string): Promise<unknown>
  /** Started by the app rather than the user: no Cancel, and it closes itself once done. */
  automatic?: boolean
}

/** Spec 03 "Export": the enclave's export page, framed inside the modal. */
export interface ExportWalletRequest {
  screen: 'export-wallet'
  /** `${apiUrl}/apps/${appId}/embedded-wallets/export` */
  url: string
  /** The init message's data (access token, which wallet). */
  init: {
    access_token: string
    entropy_id: string
    chain_type: 'ethereum' | 'solana'
    wallet_index: number | null
    theme: 'light' | 'dark'
  }
}

/** Spec 02 "Recover wallet with password" on a new device. */
export interface RecoverWalletRequest {
  screen: 'recover-wallet'
  /** Core `ensureWalletReady` with the typed password. */
  recover(password: string): Promise<void>
}

export type LoginEvent =
  | { type: 'complete'; result: LoginResult }
  | { type: 'error'; code: ErrorCode }

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
    options?: Pick<LoginOptions, 'walletChainType'>,
  ): Promise<ConnectedExternalWallet>
  /** The connect-only modal connected `wallet`: the pending `openConnectWallet` resolves. */
  completeConnectWallet(wallet: ConnectedExternalWallet): void
  /** External wallets (discovery, connections), loaded on first use. */
  readonly externalWallets: ExternalWalletsHandle
  /** Closes the modal; a wallet screen without a result is the user's rejection. */
  closeModal(): void
  /** The element that had focus when the modal opened; focus returns there on close. */
  readonly opener: { current: HTMLElement | null }
  onLoginEvent(listener: (event: LoginEvent) => void): () => void
  emitLoginEvent(event: LoginEvent): void
}

/** Spec 03 §8: closing a wallet screen without signing is EIP-1193 4001. */
export const userRejectedRequest = () =>
  new ProviderRpcError(
    providerErrors.userRejectedRequest.code,
    providerErrors.userRejectedRequest.message,
  )

interface PendingWalletScreen {
  request: WalletScreenRequest
  resolve(value: unknown): void
  reject(error: unknown): void
  result?: { value: unknown }
  exit?: unknown
}

export const ALREADY_LOGGED_IN_WARNING =
  'Latchkey: login() was called while a user is already logged in; ignoring it. Call logout() first.'

export function createLatchkeyInstance(
  client: LatchkeyClient,
  hostConfig: LatchkeyConfig,
): LatchkeyInstance {
  let state: UiState = {
    open: false,
    requested: false,
    attempt: 0,
    loginOptions: {},
    walletRequest: null,
    hostConfig,
    appConfig: null,
    appConfigError: null,
  }
  const uiListeners = new Set<() => void>()
  const eventListeners = new Set<(event: LoginEvent) => void>()
  const opener: { current: HTMLElement | null } = { current: null }
  let pendingWallet: PendingWalletScreen | null = null
  let pendingConnect: {
    resolve(wallet: ConnectedExternalWallet): void
    reject(error: unknown): void
  } | null = null
  const settleConnect = () => {
    const pending = pendingConnect
    pendingConnect = null
    pending?.reject(new LatchkeyError('WALLET_USER_REJECTED'))
  }
  const externalWallets = createExternalWalletsHandle(
    client,
    () => state.hostConfig,
    () => state.appConfig?.name ?? null,
  )
  const set = (patch: Partial<UiState>) => {
    state = { ...state, ...patch }
    for (const listener of uiListeners) listener()
  }
  const settleWalletScreen = () => {
    const pending = pendingWallet
    if (!pending) return
    pendingWallet = null
    if (pending.result) pending.resolve(pending.result.value)
    else pending.reject(pending.exit ?? userRejectedRequest())
  }
  const rememberOpener = () => {
    const active = globalThis.document?.activeElement
    opener.current = active instanceof HTMLElement ? active : null
  }

  /** Opens the modal on the login flow (a new attempt), settling any wallet screen. */
  const openLoginFlow = (loginOptions: LoginOptions, { rememberFocus = true } = {}) => {
    settleWalletScreen()
    settleConnect()
    if (rememberFocus) rememberOpener()
    set({
      open: true,
      requested: true,
      attempt: state.attempt + 1,
      loginOptions,
      walletRequest: null,
    })
  }
  const requireUser = () => {
    if (client.session.getState().status !== 'authenticated')
      throw new LatchkeyError('NOT_AUTHENTICATED')
  }

  return {
    client,
    opener,
    getUiState: () => state,
    subscribeUi(listener) {
      uiListeners.add(listener)
      return () => uiListeners.delete(listener)
    },
    setHostConfig(config) {
      if (config !== state.hostConfig) set({ hostConfig: config })
    },
    async loadAppConfig() {
      if (state.appConfigError) set({ appConfigError: null })
      try {
        set({ appConfig: await client.getAppConfig(), appConfigError: null })
      } catch (error) {
        set({ appConfigError: error as LatchkeyError })
      }
    },
    openLogin(options = {}) {
      const { status, user } = client.session.getState()
      if (status === 'authenticated' && user && !user.isGuest) {
        console.warn(ALREADY_LOGGED_IN_WARNING)
        return 'already-authenticated'
      }
      openLoginFlow(options)
      return 'opened'
    },
    openLink(options = {}) {
      requireUser()
      openLoginFlow({ ...options, intent: 'link' })
    },
    openUpdate({ method, current }) {
      requireUser()
      openLoginFlow({ method, current, intent: 'update' })
    },
    resumeLogin(resume) {
      const intent = resume.kind === 'oauth' ? resume.ret.intent : resume.intent
      const disableSignup =
        resume.kind === 'oauth' ? resume.ret.ok && resume.ret.disableSignup : resume.disableSignup
      // Nothing on the page opened it: focus has nowhere to return to.
      openLoginFlow({ intent, disableSignup, resume }, { rememberFocus: false })
    },
    openWalletScreen<T>(request: WalletScreenRequest<T>) {
      settleWalletScreen()
      if (!state.open) rememberOpener()
      return new Promise<T>((resolve, reject) => {
        pendingWallet = { request, resolve: resolve as (value: unknown) => void, reject }
        set({ open: true, requested: true, attempt: state.attempt + 1, walletRequest: request })
      })
    },
    completeWalletScreen(request, result) {
      if (pendingWallet?.request === request) pendingWallet.result = { value: result }
    },
    setWalletScreenExit(request, error) {
      if (pendingWallet?.request === request) pendingWallet.exit = error ?? undefined
    },
    externalWallets,
    openConnectWallet(options = {}) {
      openLoginFlow({ ...options, connectOnly: true, method: 'wallet' })
      return new Promise<ConnectedExternalWallet>((resolve, reject) => {
        pendingConnect = { resolve, reject }
      })
    },
    completeConnectWallet(wallet) {
      const pending = pendingConnect
      pendingConnect = null
      pending?.resolve(wallet)
    },
    closeModal() {
      settleWalletScreen()
      settleConnect()
      if (state.open) set({ open: false })
    },
    onLoginEvent(listener) {
      eventListeners.add(listener)
      return () => eventListeners.delete(listener)
    },
    emitLoginEvent(event) {
      for (const listener of eventListeners) listener(event)
    },
  }
}
