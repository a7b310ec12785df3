import { errorBodySchema, Header, loginMethodSwitchesSchema, routes } from '@latchkey/protocol'
import { vi } from 'vitest'
import { TEST_BOT_ID, TEST_BOT_NAME } from '../auth/telegram/testing.ts'
import type { RateLimitOptions } from '../config.ts'
import type { RouteDefinition } from '../http/route.ts'
import { type Hints, percentEncode } from './fuzz.ts'
import { getTestInstance, TEST_ORIGIN, type TestInstance, type TestResponse } from './instance.ts'
import { hdBody } from './wallets.ts'

/**
 * A test instance for the route fuzz tests (http/fuzz.*.test.ts): limits
 * raised so fuzzed requests reach validation and handlers instead of a 429,
 * every upstream (Farcaster relay, Turnstile, Google Drive, CloudKit) on a
 * closed loopback port, other hosts refused, server errors and unhandled
 * rejections collected.
 *
 * @example
 * const f = await getFuzzInstance()
 * afterAll(() => f.close())
 * f.expectHandled(await f.send(route, { body: { email: '\uD800' } }), 'lone surrogate')
 */
export interface FuzzInstance {
  t: TestInstance
  /** Every route definition the server serves. */
  routes: RouteDefinition[]
  /**
   * A fresh user with an HD wallet, logged in with a session bound to
   * `t.enclaveKey` (so key routes accept its proofs), and the field values
   * that name what it owns.
   */
  login(): Promise<{ token: string; hints: Hints }>
  /** Field values every request may use: the app's id. */
  hints: Hints
  send(route: RouteDefinition, input: FuzzRequest): Promise<TestResponse>
  /** Throws unless the answer is < 500, and an error answer has the `{ code, message }` shape. */
  expectHandled(res: TestResponse, label: string): void
  /** Unhandled rejections since the last call (and clears them). */
  takeRejections(): unknown[]
  close(): Promise<void>
}

export interface FuzzRequest {
  /** JSON-encoded into the body. */
  body?: unknown
  /** The body as is (malformed JSON, bytes). */
  rawBody?: string | Uint8Array<ArrayBuffer>
  /** Query string without `?`. */
  query?: string
  /** Value for a `:app_id` path segment (default: the test app). */
  pathAppId?: string
  /** A session's access token; on enclave routes the request also carries the enclave's proof. */
  token?: string
  /** Default `application/json` when there is a body; `null` sends none. */
  contentType?: string | null
}

/** A port nothing listens on: upstream calls fail at once (ECONNREFUSED). */
const CLOSED = 'http://127.0.0.1:9'

const lenient = { limit: 1_000_000, windowMs: 60_000 }
const rateLimits: RateLimitOptions = {
  codeSendsPerIdentifier: lenient,
  codeSendsPerIp: lenient,
  codeAttemptsPerIdentifier: lenient,
  codeAttemptsPerIp: lenient,
  walletKeyRequestsPerIp: lenient,
  cloudConsentsPerUser: lenient,
  telegramAuthPerIp: lenient,
  tokenPricesPerIp: lenient,
  codeResendCooldownMs: 0,
}

export async function getFuzzInstance(): Promise<FuzzInstance> {
  const serverErrors: string[] = []
  const rejections: unknown[] = []
  const onRejection = (reason: unknown) => rejections.push(reason)
  process.on('unhandledRejection', onRejection)
  const realFetch = globalThis.fetch
  const fetchSpy = vi.spyOn(globalThis, 'fetch').mockImplementation((input, init) => {
    const url = new URL(input instanceof Request ? input.url : String(input))
    if (url.hostname !== '127.0.0.1')
      return Promise.reject(new TypeError(`fetch failed: ${url.host} is off limits`))
    return realFetch(input, init)
  })
  const t = await getTestInstance({
    // Every login and MFA method on, so requests get past LOGIN_METHOD_NOT_ALLOWED.
    appSettings: {
      login_methods: Object.fromEntries(
        Object.keys(loginMethodSwitchesSchema.shape).map((method) => [method, true]),
      ),
      mfa_methods: ['sms', 'totp', 'passkey'],
      telegram_auth_config: { bot_id: TEST_BOT_ID, bot_name: TEST_BOT_NAME },
      custom_auth: { jwks_url: `${CLOSED}/jwks`, issuer: 'https://idp.test', audience: 'fuzz' },
      chains: [1, 8453],
    },
    rateLimits,
    farcaster: { relayUrl: CLOSED, optimismRpcUrl: CLOSED },
    captcha: { turnstileSiteverifyUrl: `${CLOSED}/siteverify` },
    cloudRecovery: {
      google: {
        authorizationUrl: `${CLOSED}/auth`,
        tokenUrl: `${CLOSED}/token`,
        apiBaseUrl: CLOSED,
      },
      icloud: { apiBaseUrl: CLOSED },
    },
    logger: { info() {}, warn() {}, error: (m) => serverErrors.push(m) },
  })
  let users = 0
  // How far requests got, per route and answer: LATCHKEY_FUZZ_STATS=1 prints it on close.
  const outcomes = new Map<string, number>()

  return {
    t,
    routes: t.server.routes,
    hints: { app_id: t.app.id },
    async login() {
      users += 1
      const email = `fuzz-${users}@example.com`
      const token = (await t.login(email, { enclaveKey: t.enclaveKey })).token ?? ''
      const wallet = hdBody()
      const created = await t.enclaveRequest(routes.embeddedWalletsCreate, { token, body: wallet })
      if (created.status !== 200) throw new Error(`wallet: ${JSON.stringify(created.body)}`)
      const hints = { app_id: t.app.id, entropy_id: wallet.entropy_id, email, address: email }
      return { token, hints }
    },
    async send(route, input) {
      const method = route.method.toUpperCase()
      const appId = input.pathAppId ?? t.app.id
      const path = route.path.replace(':app_id', percentEncode(appId))
      const url = input.query ? `${path}?${input.query}` : path
      const headers: Record<string, string> = { [Header.appId]: t.app.id, origin: TEST_ORIGIN }
      if (input.token) headers.authorization = `Bearer ${input.token}`
      if (route.auth === 'enclave' && input.token) {
        headers.origin = t.ownOrigin
        headers[Header.enclaveProof] = await t.enclaveKey.proof({
          method,
          path,
          token: input.token,
          origin: t.ownOrigin,
          now: t.clock.now(),
        })
      }
      let body: string | Uint8Array<ArrayBuffer> | undefined
      if (input.rawBody !== undefined) body = input.rawBody
      else if (input.body !== undefined) body = JSON.stringify(input.body)
      if (method === 'GET') body = undefined
      if (body !== undefined && input.contentType !== null)
        headers['content-type'] = input.contentType ?? 'application/json'
      const res = await t.server.app.request(url, { method, headers, body })
      const text = await res.text()
      let parsed: unknown = text
      try {
        parsed = text ? JSON.parse(text) : null
      } catch {}
      const outcome = `${routeName(route)} ${res.status} ${(parsed as { code?: unknown })?.code ?? ''}`
      outcomes.set(outcome, (outcomes.get(outcome) ?? 0) + 1)
      return { status: res.status, body: parsed, headers: res.headers }
    },
    expectHandled(res, label) {
      const logged = serverErrors.splice(0)
      if (res.status >= 500)
        throw new Error(`${label}: ${res.status} ${JSON.stringify(res.body)}; logged: ${logged}`)
      if (res.status >= 400 && !errorBodySchema.safeParse(res.body).success)
        throw new Error(`${label}: ${res.status} with a body not { code, message }: ${res.body}`)
    },
    takeRejections: () => rejections.splice(0),
    async close() {
      process.off('unhandledRejection', onRejection)
      fetchSpy.mockRestore()
      await t.close()
      if (process.env.LATCHKEY_FUZZ_STATS)
        console.log([...outcomes].map(([outcome, n]) => `${n}\t${outcome}`).join('\n'))
    },
  }
}

/** A route's path for test names (`POST /api/v1/siwe/init`). */
export const routeName = (route: RouteDefinition): string =>
  `${route.method.toUpperCase()} ${route.path}`
