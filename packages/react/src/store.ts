import type { LatchkeyClient, LatchkeyError, LoginMethod, User } from '@latchkey/core'
import type { ErrorCode } from '@latchkey/protocol/errors'
import type { AppConfig } from '@latchkey/protocol/schemas'
import type { LatchkeyConfig } from './config.ts'

/** "Login data" of spec 01 §3: what a `login()` call may ask of the modal. */
export interface LoginOptions {
  /** Pre-fills the email input. */
  prefill?: { type: 'email'; value: string }
  /** Restrict this login to existing users (mode `no-signup`). */
  disableSignup?: boolean
}

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
  | { type: 'error'; code: ErrorCode }

/** The React layer's UI state: whether the modal is open and what it draws from. */
export interface UiState {
  open: boolean
  /** True once the modal has been asked for; until then its chunk is not loaded. */
  requested: boolean
  /** Changes on every `login()`, so each opening starts from the landing screen. */
  attempt: number
  loginOptions: LoginOptions
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
  closeModal(): void
  /** The element that had focus when the modal opened; focus returns there on close. */
  readonly opener: { current: HTMLElement | null }
  onLoginEvent(listener: (event: LoginEvent) => void): () => void
  emitLoginEvent(event: LoginEvent): void
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
    hostConfig,
    appConfig: null,
    appConfigError: null,
  }
  const uiListeners = new Set<() => void>()
  const eventListeners = new Set<(event: LoginEvent) => void>()
  const opener: { current: HTMLElement | null } = { current: null }
  const set = (patch: Partial<UiState>) => {
    state = { ...state, ...patch }
    for (const listener of uiListeners) listener()
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
      const active = globalThis.document?.activeElement
      opener.current = active instanceof HTMLElement ? active : null
      set({ open: true, requested: true, attempt: state.attempt + 1, loginOptions: options })
      return 'opened'
    },
    closeModal() {
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
