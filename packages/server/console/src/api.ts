import { OAUTH_PROVIDERS } from '@latchkey/protocol/constants'

// The console's calls to its server (packages/server/src/console/routes.ts).
// Same origin, the session cookie sent by the browser, and the CSRF header on
// every change (console/guard.ts). Screens call these, never fetch.

export const CSRF_HEADER = 'x-latchkey-console'

/** A refused call: the server's stable code and its message. */
export class ConsoleApiError extends Error {
  override readonly name = 'ConsoleApiError'
  constructor(
    readonly code: string,
    message: string,
    readonly status: number,
  ) {
    super(message)
  }
}

export interface Admin {
  id: string
  name: string
}

export interface AppSummary {
  id: string
  name: string
  origins: string[]
  created_at: number
}

export type Settings = Record<string, unknown>

export interface LinkedAccount {
  type: string
  [field: string]: unknown
}

export interface User {
  id: string
  created_at: number
  linked_accounts: LinkedAccount[]
  mfa_methods: string[]
  is_guest: boolean
}

export interface Wallet {
  id: string
  address: string
  chain_type: string
  recovery_method: string
}

export interface UserSession {
  id: string
  created_at: number
  last_used_at: number
  expires_at: number
  revoked_at: number | null
  live: boolean
}

export interface UserDetail {
  user: User
  wallets: Wallet[]
  sessions: UserSession[]
}

/** One page of a list; `next_cursor` reads the next one (null: this was the last). */
export interface Page<T> {
  data: T[]
  next_cursor: string | null
}

export interface UsersPage {
  users: User[]
  next_cursor: string | null
}

export type AppEventType = 'user.created' | 'session.created' | 'wallet.key_released'

export interface AppEvent {
  id: string
  type: AppEventType
  user_id: string
  created_at: number
  detail: Record<string, unknown>
}

/** A sign-in provider's stored credentials, public half only (the secret is write-only). */
export type SignInCredential =
  | { provider: string; client_id: string }
  | { provider: 'telegram'; bot_name: string }

/** What sets one: an OAuth client or the Telegram bot; no secret keeps the stored one. */
export type SignInCredentialInput =
  | { provider: string; client_id: string; client_secret?: string }
  | { provider: 'telegram'; bot_name: string; bot_token?: string }

/** Providers with credentials beyond sign-in: backups, captcha, funding, the Farcaster signer. */
export type OtherCredentialProvider =
  | 'google-drive'
  | 'icloud'
  | 'turnstile'
  | 'moonpay'
  | 'coinbase-onramp'
  | 'farcaster-signer'

/** Any provider's stored credentials, public half only: what names them, never a secret. */
export type StoredCredential = { provider: string } & Partial<
  Record<
    'client_id' | 'bot_name' | 'container_id' | 'environment' | 'api_key_name' | 'request_fid',
    string
  >
>

/** What sets one provider's credentials (the fields of `apps credentials set`); no secret keeps the stored one. */
export type CredentialInput = { provider: string } & Record<string, string>

export interface AuditEntry {
  id: string
  admin_id: string
  admin_name: string | null
  action: string
  app_id: string | null
  target: string | null
  detail: Record<string, unknown>
  created_at: number
}

async function call<T>(path: string, body?: unknown): Promise<T> {
  const init: RequestInit = { credentials: 'same-origin', headers: {} }
  if (body !== undefined) {
    init.method = 'POST'
    init.headers = { 'content-type': 'application/json', [CSRF_HEADER]: '1' }
    init.body = JSON.stringify(body)
  }
  const res = await fetch(`/console/api${path}`, init)
  const json = (await res.json().catch(() => ({}))) as { code?: string; message?: string }
  if (!res.ok)
    throw new ConsoleApiError(
      json.code ?? 'INTERNAL_ERROR',
      json.message ?? res.statusText,
      res.status,
    )
  return json as T
}

const app = (appId: string) => `/apps/${encodeURIComponent(appId)}`
const user = (appId: string, userId: string) => `${app(appId)}/users/${encodeURIComponent(userId)}`
/** `?a=1&b=2` of the parameters that are set ('' for none). */
const query = (params: Record<string, string | undefined>) => {
  const search = new URLSearchParams()
  for (const [key, value] of Object.entries(params)) if (value) search.set(key, value)
  const text = search.toString()
  return text ? `?${text}` : ''
}

export const api = {
  login: (token: string) => call<{ admin: Admin }>('/login', { token }),
  logout: () => call<{ success: true }>('/logout', {}),
  me: () => call<{ admin: Admin }>('/me'),
  apps: () => call<{ apps: AppSummary[] }>('/apps'),
  createApp: (name: string, origins: string[]) =>
    call<{ app: AppSummary }>('/apps', { name, origins }),
  app: (appId: string) => call<{ app: AppSummary & { settings: Settings } }>(app(appId)),
  updateSettings: (appId: string, settings: Settings) =>
    call<{ settings: Settings }>(`${app(appId)}/settings`, { settings }),
  users: (appId: string, q: string, cursor?: string) =>
    call<UsersPage>(`${app(appId)}/users${query({ q, cursor })}`),
  user: (appId: string, userId: string) => call<UserDetail>(user(appId, userId)),
  revokeSessions: (appId: string, userId: string) =>
    call<{ revoked: number }>(`${user(appId, userId)}/revoke-sessions`, {}),
  revokeSession: (appId: string, userId: string, sessionId: string) =>
    call<{ revoked: boolean }>(
      `${user(appId, userId)}/sessions/${encodeURIComponent(sessionId)}/revoke`,
      {},
    ),
  resetMfa: (appId: string, userId: string) =>
    call<{ methods: string[] }>(`${user(appId, userId)}/mfa-reset`, {}),
  deleteUser: (appId: string, userId: string) =>
    call<{ success: true }>(`${user(appId, userId)}/delete`, {}),
  events: (appId: string, cursor?: string, type?: AppEventType) =>
    call<Page<AppEvent>>(`${app(appId)}/events${query({ cursor, type })}`),
  audit: (cursor?: string) => call<Page<AuditEntry>>(`/audit${query({ cursor })}`),
  /** The app's paymaster signer (smart wallets): its address, never its key. */
  paymasterSigner: (appId: string) =>
    call<{ address: string | null }>(`${app(appId)}/smart-wallets/paymaster-signer`),
  createPaymasterSigner: (appId: string) =>
    call<{ address: string; created: boolean }>(`${app(appId)}/smart-wallets/paymaster-signer`, {}),
  /** The OAuth clients and Telegram bot the app has credentials for: public halves only. */
  signInCredentials: (appId: string) =>
    call<{ credentials: StoredCredential[] }>(`${app(appId)}/sign-in-credentials`).then(
      ({ credentials }) => ({
        credentials: credentials.filter(
          (c): c is SignInCredential =>
            c.provider === 'telegram' ||
            (OAUTH_PROVIDERS as readonly string[]).includes(c.provider),
        ),
      }),
    ),
  setSignInCredential: (appId: string, input: SignInCredentialInput) =>
    call<SignInCredential>(`${app(appId)}/sign-in-credentials`, input),
  /** Every provider the app has credentials for: public halves only. */
  credentials: (appId: string) =>
    call<{ credentials: StoredCredential[] }>(`${app(appId)}/sign-in-credentials`),
  setCredential: (appId: string, input: CredentialInput) =>
    call<StoredCredential>(`${app(appId)}/sign-in-credentials`, input),
  /** As `apps credentials delete`; `deleted` is false when there were none. */
  deleteCredential: (appId: string, provider: string) =>
    call<{ deleted: boolean }>(`${app(appId)}/sign-in-credentials/delete`, { provider }),
}
