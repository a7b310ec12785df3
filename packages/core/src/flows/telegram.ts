import { routes } from '@latchkey/protocol/routes'
import type { AuthMode, TelegramAuthResult, UserWire } from '@latchkey/protocol/schemas'
import type { LatchkeyClient } from '../client.ts'
import { type LatchkeyError, toLatchkeyError } from '../errors.ts'
import { setRecentLoginMethod } from '../recent-login.ts'
import { sessionStore } from '../redirect.ts'
import { toUser, type User } from '../user.ts'
import { loginRequest } from './login-request.ts'
import { telegramPendingKey } from './pending-keys.ts'

export { telegramPendingKey }

/**
 * One of Telegram's two signed payloads: the Login Widget result (callback
 * object or redirect parameters) or a Mini App's `initData` string. The
 * server checks the signature with the app's bot token.
 */
export type TelegramProof =
  | { telegramAuthResult: TelegramAuthResult; telegramWebAppData?: undefined }
  | { telegramWebAppData: string; telegramAuthResult?: undefined }

const toBody = (proof: TelegramProof) =>
  proof.telegramWebAppData !== undefined
    ? { telegram_web_app_data: proof.telegramWebAppData }
    : { telegram_auth_result: proof.telegramAuthResult }

export type LoginWithTelegramParameters = TelegramProof & {
  /** `no-signup` when sign-up is disabled (spec 01 §5). */
  mode?: AuthMode
  captchaToken?: string
}

export interface LoginWithTelegramReturnType {
  user: User
  isNewUser: boolean
}

/**
 * Logs in (or signs up) with a Telegram payload and stores the session.
 *
 * @example
 * const ret = takeTelegramReturn()
 * if (ret) await loginWithTelegram(client, ret)
 */
export async function loginWithTelegram(
  client: LatchkeyClient,
  { mode = 'login-or-sign-up', captchaToken, ...proof }: LoginWithTelegramParameters,
): Promise<LoginWithTelegramReturnType> {
  // docs/captcha.md: a fresh single-use token from the installed captcha, if any.
  const token = captchaToken ?? (await client.captchaToken())
  const response = await loginRequest(client, routes.telegramAuthenticate, {
    ...toBody(proof as TelegramProof),
    mode,
    ...(token ? { captcha_token: token } : {}),
  })
  const user = client.session.applyAuthResponse(response)
  setRecentLoginMethod(client.storage, client.appId, 'telegram')
  return { user, isNewUser: response.is_new_user }
}

/** Links the Telegram account of `proof` to the logged-in user. */
export async function linkTelegram(client: LatchkeyClient, proof: TelegramProof): Promise<User> {
  const user = toUser(await client.authedRequest<UserWire>(routes.telegramLink, toBody(proof)))
  client.session.setUser(user)
  return user
}

/** Unlinks a Telegram account from the logged-in user (who must keep one login method). */
export async function unlinkTelegram(
  client: LatchkeyClient,
  { telegramUserId }: { telegramUserId: string },
): Promise<User> {
  const user = toUser(
    await client.authedRequest<UserWire>(routes.telegramUnlink, {
      telegram_user_id: telegramUserId,
    }),
  )
  client.session.setUser(user)
  return user
}

/** The Login Widget's redirect parameters (https://core.telegram.org/widgets/login). */
export const TELEGRAM_RETURN_PARAMS = [
  'id',
  'first_name',
  'last_name',
  'username',
  'photo_url',
  'auth_date',
  'hash',
] as const

/** Telegram's login page (the widget's redirect mode). */
export const TELEGRAM_OAUTH_URL = 'https://oauth.telegram.org/auth'

export interface TelegramLoginUrlParameters {
  /** The bot id (`telegram_auth_config.bot_id`). */
  botId: string
  /** This page's origin; it must be the domain set with BotFather's /setdomain. */
  origin: string
  /** Where Telegram sends the browser back to, on `origin`. */
  returnTo: string
  /** Ask for permission for the bot to message the user (default true). */
  requestAccess?: boolean
}

/**
 * The URL of Telegram's login page in redirect mode: the user confirms in
 * Telegram and comes back to `returnTo` with the signed result, which
 * {@link takeTelegramReturn} reads.
 *
 * @example
 * location.assign(telegramLoginUrl({ botId: config.telegram_auth_config.bot_id, origin: location.origin, returnTo: location.href }))
 */
export function telegramLoginUrl({
  botId,
  origin,
  returnTo,
  requestAccess = true,
}: TelegramLoginUrlParameters): string {
  const url = new URL(TELEGRAM_OAUTH_URL)
  url.searchParams.set('bot_id', botId)
  url.searchParams.set('origin', origin)
  url.searchParams.set('return_to', returnTo)
  if (requestAccess) url.searchParams.set('request_access', 'write')
  return url.toString()
}

function decodeBase64Url(value: string): string {
  const b64 = value.replace(/-/g, '+').replace(/_/g, '/')
  const binary = atob(b64 + '='.repeat((4 - (b64.length % 4)) % 4))
  return new TextDecoder().decode(Uint8Array.from(binary, (c) => c.charCodeAt(0)))
}

function authResultFromJson(text: string): TelegramAuthResult | null {
  try {
    const value = JSON.parse(text) as Record<string, unknown>
    if (!value || typeof value !== 'object' || typeof value.hash !== 'string') return null
    const result: Record<string, string | number> = {}
    for (const [key, field] of Object.entries(value))
      if (typeof field === 'string' || typeof field === 'number') result[key] = field
    return result as TelegramAuthResult
  } catch {
    return null
  }
}

/** What a page opened by Telegram carries: a widget result or Mini App data. */
export type TelegramReturn = TelegramProof

/**
 * Reads Telegram's return from a URL without changing anything: the widget's
 * query parameters (id, first_name, last_name, username, photo_url,
 * auth_date, hash), the login page's `#tgAuthResult=` fragment, or a Mini
 * App's `tgWebAppData` launch parameter (fragment or query).
 */
export function readTelegramReturn(href: string): TelegramReturn | null {
  const url = new URL(href)
  const hash = new URLSearchParams(url.hash.replace(/^#/, ''))
  const webAppData = hash.get('tgWebAppData') ?? url.searchParams.get('tgWebAppData')
  if (webAppData) return { telegramWebAppData: webAppData }
  const fragment = hash.get('tgAuthResult')
  if (fragment) {
    try {
      const result = authResultFromJson(decodeBase64Url(fragment))
      if (result) return { telegramAuthResult: result }
    } catch {}
    return null
  }
  const q = url.searchParams
  const id = q.get('id')
  const authDate = q.get('auth_date')
  const hashParam = q.get('hash')
  if (!id || !authDate || !hashParam) return null
  const result: Record<string, string | number> = {}
  for (const key of TELEGRAM_RETURN_PARAMS) {
    const value = q.get(key)
    if (value !== null) result[key] = key === 'id' || key === 'auth_date' ? Number(value) : value
  }
  // Keep the id as typed when it is not a safe integer (signed as a string).
  if (!Number.isSafeInteger(result.id)) result.id = id
  return { telegramAuthResult: result as TelegramAuthResult }
}

/** The URL with Telegram's return parameters removed (spec 01 §2). */
export function stripTelegramReturn(href: string): string {
  const url = new URL(href)
  const had = readTelegramReturn(href)
  if (!had) return href
  const hash = new URLSearchParams(url.hash.replace(/^#/, ''))
  if (hash.has('tgWebAppData') || hash.has('tgAuthResult')) {
    for (const key of [...hash.keys()])
      if (key === 'tgAuthResult' || key.startsWith('tgWebApp')) hash.delete(key)
    url.hash = hash.toString()
  }
  url.searchParams.delete('tgWebAppData')
  if (had.telegramAuthResult && !url.hash.includes('tgAuthResult'))
    for (const key of TELEGRAM_RETURN_PARAMS) url.searchParams.delete(key)
  return url.toString()
}

/**
 * Reads Telegram's return from the address bar and removes it (history
 * replace, no reload), so a reload or a shared link does not replay it.
 */
export function takeTelegramReturn(
  win: Pick<Window, 'location' | 'history'> | undefined = globalThis.window,
): TelegramReturn | null {
  if (!win) return null
  const found = readTelegramReturn(win.location.href)
  if (found) win.history.replaceState(win.history.state, '', stripTelegramReturn(win.location.href))
  return found
}

/** A Telegram redirect this tab started (sessionStorage): who finishes it, and how. */
export interface PendingTelegram {
  intent: 'login' | 'link'
  disableSignup: boolean
  /** The modal, or the app's own UI. */
  ui: 'modal' | 'app'
  createdAt: number
}

/** A pending Telegram login older than this is ignored (Telegram's auth_date check is a day). */
export const TELEGRAM_LOGIN_MAX_AGE_MS = 15 * 60 * 1000

/**
 * Sends the browser to Telegram's login page, remembering in this tab who
 * asked (the modal or the app) and whether to log in or link, so the page
 * Telegram returns to finishes it with {@link takeTelegramRedirect}.
 *
 * @example
 * redirectToTelegram(client, { botId: appConfig.telegram_auth_config.bot_id, intent: 'login', ui: 'modal' })
 */
export function redirectToTelegram(
  client: LatchkeyClient,
  parameters: {
    botId: string
    intent?: 'login' | 'link'
    disableSignup?: boolean
    ui?: 'modal' | 'app'
    /** Default: this page. */
    returnTo?: string
    navigate?: (url: string) => void
    now?: () => number
  },
): void {
  const intent = parameters.intent ?? 'login'
  const pending: PendingTelegram = {
    intent,
    disableSignup: intent === 'login' && parameters.disableSignup === true,
    ui: parameters.ui ?? 'app',
    createdAt: (parameters.now ?? Date.now)(),
  }
  sessionStore()?.setItem(telegramPendingKey(client.appId), JSON.stringify(pending))
  const { origin, pathname, search } = globalThis.location
  const url = telegramLoginUrl({
    botId: parameters.botId,
    origin,
    returnTo: parameters.returnTo ?? `${origin}${pathname}${search}`,
  })
  ;(parameters.navigate ?? ((to: string) => globalThis.location.assign(to)))(url)
}

/**
 * Back from Telegram's login page: when this tab sent the browser there for
 * `ui` (see {@link redirectToTelegram}) and the address carries Telegram's
 * result, reads and removes it and the pending marker. Null otherwise; a
 * return meant for the other UI is left alone.
 */
export function takeTelegramRedirect(
  client: LatchkeyClient,
  options: {
    ui: 'modal' | 'app'
    win?: Pick<Window, 'location' | 'history'>
    now?: number
  },
): { proof: TelegramProof; intent: 'login' | 'link'; disableSignup: boolean } | null {
  const win = options.win ?? globalThis.window
  const store = sessionStore()
  const raw = store?.getItem(telegramPendingKey(client.appId))
  if (!win || !raw) return null
  let pending: PendingTelegram
  try {
    pending = JSON.parse(raw) as PendingTelegram
  } catch {
    return null
  }
  if (pending.ui !== options.ui) return null
  if ((options.now ?? Date.now()) - pending.createdAt > TELEGRAM_LOGIN_MAX_AGE_MS) {
    store?.removeItem(telegramPendingKey(client.appId))
    return null
  }
  const proof = takeTelegramReturn(win)
  if (!proof) return null
  store?.removeItem(telegramPendingKey(client.appId))
  return { proof, intent: pending.intent, disableSignup: pending.disableSignup }
}

/**
 * Inside a Telegram Mini App, the signed `initData` Telegram's script exposes
 * (`window.Telegram.WebApp.initData`); null elsewhere. Seamless auth sends it
 * as `telegramWebAppData`.
 */
export function readMiniAppInitData(
  win: { Telegram?: { WebApp?: { initData?: unknown } } } | undefined = globalThis as never,
): string | null {
  const initData = win?.Telegram?.WebApp?.initData
  return typeof initData === 'string' && initData !== '' ? initData : null
}

/** The three Telegram statuses (spec 01 §4 "Telegram"): verifying, then success or failure. */
export type TelegramFlowState =
  | { status: 'initial' }
  | { status: 'verifying' }
  | { status: 'success'; user: User; isNewUser: boolean }
  | { status: 'failure'; error: LatchkeyError; retryable: boolean }

export type TelegramFlowIntent = { type: 'login'; disableSignup?: boolean } | { type: 'link' }

export interface TelegramFlow {
  getState(): TelegramFlowState
  subscribe(listener: () => void): () => void
  /** Verifies `proof` (logs in or links according to the intent). Never throws. */
  submit(proof: TelegramProof): Promise<void>
  /** Submits the last proof again after a retryable failure. */
  retry(): Promise<void>
  reset(): void
}

/**
 * Telegram login as a small state machine the status screen renders.
 *
 * @example
 * const flow = createTelegramFlow(client)
 * const ret = takeTelegramReturn()
 * if (ret) await flow.submit(ret)
 * flow.getState() // { status: 'success', user, isNewUser }
 */
export function createTelegramFlow(
  client: LatchkeyClient,
  options: { intent?: TelegramFlowIntent } = {},
): TelegramFlow {
  const intent = options.intent ?? { type: 'login' }
  const listeners = new Set<() => void>()
  let state: TelegramFlowState = { status: 'initial' }
  let last: TelegramProof | null = null
  const set = (next: TelegramFlowState) => {
    state = next
    for (const listener of listeners) listener()
  }
  async function submit(proof: TelegramProof) {
    if (state.status === 'verifying') return
    last = proof
    set({ status: 'verifying' })
    try {
      if (intent.type === 'link') {
        set({ status: 'success', user: await linkTelegram(client, proof), isNewUser: false })
      } else {
        const mode = intent.disableSignup ? 'no-signup' : 'login-or-sign-up'
        const { user, isNewUser } = await loginWithTelegram(client, { ...proof, mode })
        set({ status: 'success', user, isNewUser })
      }
    } catch (error) {
      const latchkeyError = toLatchkeyError(error)
      set({
        status: 'failure',
        error: latchkeyError,
        retryable: latchkeyError.userMessage.retryable === true,
      })
    }
  }
  return {
    getState: () => state,
    subscribe(listener) {
      listeners.add(listener)
      return () => listeners.delete(listener)
    },
    submit,
    async retry() {
      if (state.status === 'failure' && last) await submit(last)
    },
    reset() {
      last = null
      set({ status: 'initial' })
    },
  }
}
