import { routes } from '@latchkey/protocol'
import { Counter, collectDefaultMetrics, Histogram, Registry } from 'prom-client'
import type { RateLimiter } from '../rate-limit/types.ts'

/*
 * The server's Prometheus metrics (docs/operations.md "Metrics"). Each server
 * has its own Registry (never prom-client's global one), so two servers in
 * one process count apart. When /metrics is off the server uses `noMetrics`:
 * nothing is counted, and no default process collectors are started.
 */

/** How a login completed (`latchkey_logins_total{method}`). */
export type LoginMethod =
  | 'email'
  | 'sms'
  | 'oauth'
  | 'siwe'
  | 'siws'
  | 'passkey'
  | 'telegram'
  | 'farcaster'
  | 'guest'
  | 'custom_jwt'
  | 'cross_app'

/** A wallet operation as the server sees it (`latchkey_wallet_operations_total{operation}`). */
export type WalletOperation =
  | 'create'
  | 'import'
  | 'add'
  | 'auth_share_release'
  | 'recovery_release'
  | 'set_recovery'

const LOGIN_METHODS: Record<string, LoginMethod> = {
  [routes.emailAuthenticate]: 'email',
  [routes.smsAuthenticate]: 'sms',
  [routes.oauthAuthenticate]: 'oauth',
  [routes.siweAuthenticate]: 'siwe',
  [routes.siwsAuthenticate]: 'siws',
  [routes.passkeyAuthenticate]: 'passkey',
  [routes.passkeyRegister]: 'passkey',
  [routes.telegramAuthenticate]: 'telegram',
  [routes.farcasterAuthenticate]: 'farcaster',
  [routes.guestAuthenticate]: 'guest',
  [routes.customJwtAuthenticate]: 'custom_jwt',
  [routes.crossAppAuthenticate]: 'cross_app',
}

const WALLET_OPERATIONS: WalletOperation[] = [
  'create',
  'import',
  'add',
  'auth_share_release',
  'recovery_release',
  'set_recovery',
]

/**
 * The login method of a login route (`startsSession`, http/route.ts). Throws
 * for a login route missing here, so a new one cannot go uncounted (every
 * server start registers them all).
 */
export function loginMethodOfRoute(path: string): LoginMethod {
  const method = LOGIN_METHODS[path]
  if (!method) throw new Error(`${path}: a login route needs a login method in metrics/registry.ts`)
  return method
}

export interface ServerMetrics {
  /** The server's own registry; null when metrics are off. */
  readonly registry: Registry | null
  /** One finished request: `route` is the route's path template, or 'unmatched'. */
  request(method: string, route: string, status: number, seconds: number): void
  login(method: LoginMethod): void
  walletOperation(operation: WalletOperation): void
  /** `limit` is the limiter key's purpose prefix (`otp-send-ip`), never the key. */
  rateLimitRefusal(limit: string): void
}

/** Metrics off: every call does nothing. */
export const noMetrics: ServerMetrics = {
  registry: null,
  request() {},
  login() {},
  walletOperation() {},
  rateLimitRefusal() {},
}

/** A registry with the Latchkey metrics and prom-client's default process metrics. */
export function createServerMetrics(): ServerMetrics {
  const registry = new Registry()
  collectDefaultMetrics({ register: registry })
  const requests = new Counter({
    name: 'latchkey_http_requests_total',
    help: 'HTTP requests answered, by method, route template and status',
    labelNames: ['method', 'route', 'status'] as const,
    registers: [registry],
  })
  const duration = new Histogram({
    name: 'latchkey_http_request_duration_seconds',
    help: 'Time to answer an HTTP request (until the handler returned its response), by method and route template',
    labelNames: ['method', 'route'] as const,
    registers: [registry],
  })
  const logins = new Counter({
    name: 'latchkey_logins_total',
    help: 'Completed logins (sessions created), by login method',
    labelNames: ['method'] as const,
    registers: [registry],
  })
  const wallets = new Counter({
    name: 'latchkey_wallet_operations_total',
    help: 'Embedded-wallet operations completed, by operation',
    labelNames: ['operation'] as const,
    registers: [registry],
  })
  const refusals = new Counter({
    name: 'latchkey_rate_limit_refusals_total',
    help: 'Requests refused by a rate limit, by limit',
    labelNames: ['limit'] as const,
    registers: [registry],
  })
  // Known series start at 0, so rate() sees the first one.
  for (const method of new Set(Object.values(LOGIN_METHODS))) logins.inc({ method }, 0)
  for (const operation of WALLET_OPERATIONS) wallets.inc({ operation }, 0)
  return {
    registry,
    request(method, route, status, seconds) {
      requests.inc({ method, route, status: String(status) })
      duration.observe({ method, route }, seconds)
    },
    login: (method) => logins.inc({ method }),
    walletOperation: (operation) => wallets.inc({ operation }),
    rateLimitRefusal: (limit) => refusals.inc({ limit }),
  }
}

/** `otp-send-ip:203.0.113.0` → 'otp-send-ip'; anything not shaped like a purpose → 'other'. */
export function limitOfKey(key: string): string {
  const purpose = key.slice(0, key.indexOf(':'))
  return /^[a-z][a-z0-9-]{0,39}$/.test(purpose) ? purpose : 'other'
}

/** The limiter, counting each refused hit under its key's purpose (never the key: it holds IPs, addresses). */
export function countRefusals(limiter: RateLimiter, metrics: ServerMetrics): RateLimiter {
  const ping = limiter.ping?.bind(limiter)
  return {
    async hit(key, limit, windowMs) {
      const result = await limiter.hit(key, limit, windowMs)
      if (!result.allowed) metrics.rateLimitRefusal(limitOfKey(key))
      return result
    },
    peek: (key) => limiter.peek(key),
    ...(ping ? { ping } : {}),
  }
}
