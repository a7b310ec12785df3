import { type LatchkeyClient, LatchkeyError, ProviderRpcError } from '@latchkey/core'
import type { ConnectedExternalWallet } from '@latchkey/core/external'
import { providerErrors } from '@latchkey/protocol/error-basics'
import type { LatchkeyConfig } from './config.ts'
import { createExternalWalletsHandle } from './external-wallets.ts'
import type { LatchkeyInstance, LoginEvent, LoginOptions, UiState } from './instance.ts'
import type { WalletScreenRequest } from './wallet-requests.ts'

// Re-exported for the modules that name these types through the store (./store.ts).
export type {
  LatchkeyInstance,
  LoginEvent,
  LoginOptions,
  LoginResult,
  ResumedLogin,
  UiState,
} from './instance.ts'
export type {
  CloudRecoveryRequest,
  ConnectEmbeddedWalletRequest,
  ConnectWalletStep,
  ExportWalletRequest,
  ManagePasskeysRequest,
  RecoveryOption,
  SecureAccountRequest,
  SetPasswordRequest,
  SignMessagePayload,
  SignMessageRequest,
  SignMessageUiOptions,
  WalletScreenRequest,
} from './wallet-requests.ts'

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
    mfaOpen: false,
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
    setMfaOpen(open) {
      if (open === state.mfaOpen) return
      if (open && !state.open) rememberOpener()
      set(open ? { mfaOpen: true, requested: true } : { mfaOpen: false })
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
