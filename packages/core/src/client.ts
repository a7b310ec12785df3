import type { ErrorCode } from '@latchkey/protocol/errors'
import type { AppConfig } from '@latchkey/protocol/schemas'
import { sessionRoutes } from '@latchkey/protocol/session-routes'
import { isValidAppId } from '@latchkey/protocol/validation'
import { mirrorAccessTokenCookie } from './access-token-cookie.ts'
import { getOrCreateAnalyticsId, trackEvent } from './analytics.ts'
import { LatchkeyError } from './errors.ts'
import {
  createHttpClient,
  type HttpClient,
  type HttpClientOptions,
  type RequestOptions,
} from './http.ts'
import { createSessionStore, type SessionStore } from './session.ts'
import { ENCLAVE_KEY_WAIT_MS, type SessionKeyProvider, waitForSessionKey } from './session-key.ts'
import {
  type CookieJar,
  createDocumentCookies,
  createLocalStorage,
  type KeyValueStorage,
} from './storage.ts'

export interface LatchkeyClientOptions {
  /** The app's id (25 characters), from `latchkey apps create`. */
  appId: string
  /** The Latchkey server's base URL. */
  apiUrl: string
  /** An optional app client id, sent as a header. */
  clientId?: string
  storage?: KeyValueStorage
  cookies?: CookieJar
  /**
   * Also keep the access token in the first-party cookie `latchkey-token`
   * (SameSite=Strict, expiring with the token), so the app's own server can
   * read the session while rendering (docs/nextjs.md). Default false: tokens
   * stay in `storage` only.
   */
  accessTokenCookie?: boolean
  fetch?: typeof fetch
  http?: Pick<HttpClientOptions, 'timeoutMs' | 'maxRetries' | 'retryBaseDelayMs' | 'sleep'>
  now?: () => number
}

/** The client every flow, hook and screen works through. One per app. */
export interface LatchkeyClient {
  readonly appId: string
  readonly apiUrl: string
  readonly clientId: string | null
  readonly storage: KeyValueStorage
  readonly http: HttpClient
  readonly session: SessionStore
  /** The app's server configuration, fetched once and cached. */
  getAppConfig(): Promise<AppConfig>
  /** A request as the logged-in user: refreshes first, throws NOT_AUTHENTICATED when logged out. */
  authedRequest<T>(path: string, body?: unknown): Promise<T>
  /** Fire-and-forget analytics event. */
  trackEvent(eventName: string, payload?: Record<string, unknown>): void
  /**
   * The captcha token for the next login-start call (docs/captcha.md), from
   * the provider the UI installed; undefined when none is installed. Each
   * token is single-use: the provider hands out a fresh one per call.
   */
  captchaToken(): Promise<string | undefined>
  /**
   * Installs (or removes, with null) what `captchaToken()` asks; its
   * `onRejected` hears every answer refusing a token (CAPTCHA_INVALID,
   * CAPTCHA_FAILED), so the captcha can reset (spec 01 §8).
   */
  setCaptchaTokenProvider(
    provider: CaptchaTokenProvider | null,
    options?: CaptchaTokenProviderOptions,
  ): void
  /**
   * The thumbprint of the enclave key the next login binds its session to
   * (docs/security.md "Key routes answer only to the enclave"), from the
   * provider installed with `setSessionKeyProvider`; undefined when none is
   * installed, or when it has no key within {@link ENCLAVE_KEY_WAIT_MS}
   * (the login then goes ahead unbound, with one warning).
   */
  sessionKey(): Promise<string | undefined>
  /** Installs (or removes, with null) what `sessionKey()` asks; see `bindSessionsToEnclave`. */
  setSessionKeyProvider(provider: SessionKeyProvider | null): void
}

/** Produces a fresh captcha token, waiting for the captcha to be solved; rejects with a CAPTCHA_* error. */
export type CaptchaTokenProvider = () => Promise<string | undefined>

export interface CaptchaTokenProviderOptions {
  /** The server refused a token it was sent: drop what is solved and solve again. */
  onRejected?(code: ErrorCode): void
}

/** Answers that spend or refuse the token they were sent (docs/captcha.md). */
const CAPTCHA_REFUSALS: ReadonlySet<ErrorCode> = new Set<ErrorCode>([
  'CAPTCHA_INVALID',
  'CAPTCHA_FAILED',
])

/**
 * Creates the Latchkey browser client: HTTP client, session store and app
 * configuration, with no React.
 *
 * @example
 * const client = createLatchkeyClient({ appId, apiUrl: 'http://localhost:8787' })
 * await client.session.initialize()
 */
export function createLatchkeyClient(options: LatchkeyClientOptions): LatchkeyClient {
  if (!isValidAppId(options.appId)) throw new LatchkeyError('INVALID_APP_ID')
  const cookies = options.cookies ?? createDocumentCookies()
  const tokenStorage = options.storage ?? createLocalStorage()
  const storage = options.accessTokenCookie
    ? mirrorAccessTokenCookie(tokenStorage, cookies, options.now)
    : tokenStorage
  const clientId = options.clientId ?? null
  const analyticsId = getOrCreateAnalyticsId(storage)
  let session: SessionStore | undefined
  let captchaRejected: CaptchaTokenProviderOptions['onRejected']
  const rawHttp = createHttpClient({
    ...options.http,
    apiUrl: options.apiUrl,
    appId: options.appId,
    fetch: options.fetch,
    getAccessToken: () => session?.peekAccessToken() ?? null,
    getClientId: () => clientId,
    getAnalyticsId: () => analyticsId,
  })
  // Every call goes through here, so a refused token is heard whichever flow sent it.
  const http: HttpClient = {
    async request<T>(path: string, init?: RequestOptions): Promise<T> {
      try {
        return await rawHttp.request<T>(path, init)
      } catch (error) {
        if (error instanceof LatchkeyError && CAPTCHA_REFUSALS.has(error.code))
          captchaRejected?.(error.code)
        throw error
      }
    },
  }
  session = createSessionStore({
    appId: options.appId,
    http,
    storage,
    cookies,
    now: options.now,
  })
  const sessionStore = session
  let appConfig: Promise<AppConfig> | null = null
  let captchaTokenProvider: CaptchaTokenProvider | null = null
  let sessionKeyProvider: SessionKeyProvider | null = null
  let warnedNoSessionKey = false
  const warnNoSessionKey = (reason: string) => {
    if (warnedNoSessionKey) return
    warnedNoSessionKey = true
    console.warn(
      `Latchkey: logging in without the wallet enclave's key (${reason}); embedded wallets will not work in this session`,
    )
  }

  return {
    appId: options.appId,
    apiUrl: options.apiUrl,
    clientId,
    storage,
    http,
    session: sessionStore,
    getAppConfig() {
      appConfig ??= http
        .request<AppConfig>(sessionRoutes.appConfig(options.appId))
        .catch((error) => {
          appConfig = null
          throw error
        })
      return appConfig
    },
    async authedRequest<T>(path: string, body?: unknown) {
      const token = await sessionStore.getAccessToken()
      if (!token) throw new LatchkeyError('NOT_AUTHENTICATED')
      return http.request<T>(path, { body, token })
    },
    trackEvent(eventName, payload) {
      trackEvent(http, eventName, clientId, payload)
    },
    async captchaToken() {
      return captchaTokenProvider ? captchaTokenProvider() : undefined
    },
    setCaptchaTokenProvider(provider, options) {
      captchaTokenProvider = provider
      captchaRejected = provider ? options?.onRejected : undefined
    },
    async sessionKey() {
      if (!sessionKeyProvider) return undefined
      return waitForSessionKey(sessionKeyProvider, {
        timeoutMs: ENCLAVE_KEY_WAIT_MS,
        onMissing: warnNoSessionKey,
      })
    },
    setSessionKeyProvider(provider) {
      sessionKeyProvider = provider
    },
  }
}
