import { DEFAULT_LOGIN_METHOD_SWITCHES } from '@latchkey/protocol/constants'
import type { AppConfig } from '@latchkey/protocol/schemas'

/** A 25-character app id for tests. */
export const APP_ID = 'testappaaaaaaaaaaaaaaaaaa'
export const API_URL = 'http://latchkey.test'

export function appConfig(overrides: Partial<AppConfig> = {}): AppConfig {
  return {
    id: APP_ID,
    name: 'Test App',
    logo_url: null,
    accent_color: null,
    login_methods: { ...DEFAULT_LOGIN_METHOD_SWITCHES },
    terms_and_conditions_url: null,
    privacy_policy_url: null,
    require_users_accept_terms: false,
    disable_plus_emails: false,
    passkeys_for_signup_enabled: false,
    captcha_enabled: false,
    smart_wallet_config: null,
    captcha_site_key: null,
    captcha_provider: null,
    allowlist_config: {
      error_title: null,
      error_detail: null,
      error_cta_text: null,
      error_cta_link: null,
    },
    embedded_wallet_config: {
      create_on_login: { ethereum: 'off', solana: 'off' },
      require_user_owned_recovery_on_create: false,
      user_owned_recovery_options: [],
      // The server's default: any recovery the app offers (a password at least).
      mode: 'legacy-embedded-wallets-only',
    },
    funding_config: null,
    mfa_methods: [],
    telegram_auth_config: null,
    whatsapp_enabled: false,
    ...overrides,
  }
}

function fakeJwt(claims: Record<string, unknown>): string {
  const encode = (value: unknown) =>
    btoa(JSON.stringify(value)).replace(/=+$/, '').replace(/\+/g, '-').replace(/\//g, '_')
  return `${encode({ alg: 'ES256', typ: 'at+jwt' })}.${encode(claims)}.sig`
}

export function wireUser(address: string, now: number) {
  return {
    id: 'did:latchkey:user1',
    created_at: now,
    linked_accounts: [
      { type: 'email', address, verified_at: now, first_verified_at: now, latest_verified_at: now },
    ],
    mfa_methods: [],
    has_accepted_terms: false,
    is_guest: false,
  }
}

/** An (unsigned) access token for the test app: the client only decodes tokens. */
export const accessToken = (exp: number) => fakeJwt({ sub: 'did:latchkey:user1', aud: APP_ID, exp })

const json = (status: number, body: unknown) =>
  new Response(status === 204 ? null : JSON.stringify(body), {
    status,
    headers: { 'content-type': 'application/json' },
  })

export interface RecordedCall {
  method: string
  path: string
  headers: Record<string, string>
  body: unknown
}

export interface FakeServerOptions {
  config?: Partial<AppConfig>
  /** The code the server accepts. */
  code?: string
  /** Addresses that already have an account (for `disableSignup`). */
  existingUsers?: string[]
  /** The first N app-config requests fail as if the network were down. */
  configFailures?: number
  /**
   * Refuse a second code to one address within this long, as the real server
   * does (429 RESEND_COOLDOWN with `retry_after`); read on the (fakeable) clock.
   */
  resendCooldownMs?: number
}

/**
 * A `fetch` that plays the Latchkey server for the routes the login path
 * uses: app config, send code, authenticate, analytics, logout.
 */
export function createFakeServer(options: FakeServerOptions = {}) {
  const code = options.code ?? '123456'
  const existing = new Set(options.existingUsers ?? [])
  const calls: RecordedCall[] = []
  let configFailures = options.configFailures ?? 0
  const lastSend = new Map<string, number>()
  const fetch = (async (input: RequestInfo | URL, init?: RequestInit) => {
    const path = new URL(String(input)).pathname
    const body = typeof init?.body === 'string' ? JSON.parse(init.body) : undefined
    const headers = Object.fromEntries(new Headers(init?.headers).entries())
    calls.push({ method: init?.method ?? 'GET', path, headers, body })
    if (path === `/api/v1/apps/${APP_ID}` && configFailures-- > 0)
      throw new TypeError('Failed to fetch')
    if (path === `/api/v1/apps/${APP_ID}`) return json(200, appConfig(options.config))
    if (path === '/api/v1/passwordless/init') {
      if (body.disableSignup && !existing.has(body.email))
        return json(404, { code: 'USER_DOES_NOT_EXIST', message: 'No such user' })
      const cooldown = options.resendCooldownMs ?? 0
      const waited = Date.now() - (lastSend.get(body.email) ?? Number.NEGATIVE_INFINITY)
      if (waited < cooldown)
        return json(429, {
          code: 'RESEND_COOLDOWN',
          message: 'Too many requests. Please wait before trying again.',
          retry_after: Math.ceil((cooldown - waited) / 1000),
        })
      lastSend.set(body.email, Date.now())
      return json(200, { success: true })
    }
    if (path === '/api/v1/passwordless/authenticate') {
      if (body.code !== code) return json(422, { code: 'INVALID_CODE', message: 'Invalid code' })
      const now = Math.floor(Date.now() / 1000)
      return json(200, {
        user: wireUser(body.email, now),
        is_new_user: true,
        token: accessToken(now + 3600),
        refresh_token: 'refresh-1',
        identity_token: null,
        session_update_action: 'set',
      })
    }
    if (path === '/api/v1/users/me') {
      const now = Math.floor(Date.now() / 1000)
      return json(200, { user: wireUser('alice@example.com', now), identity_token: null })
    }
    if (path === '/api/v1/analytics_events') return json(200, { success: true })
    if (path === '/api/v1/sessions/logout') return json(200, { success: true })
    return json(404, { code: 'NOT_FOUND', message: `No route ${path}` })
  }) as typeof globalThis.fetch
  return { fetch, calls, code }
}
