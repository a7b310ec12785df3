import { ApiError } from '../errors.ts'

/**
 * Seconds a client is asked to wait after a 503 SERVICE_UNAVAILABLE: the
 * PostgreSQL pool opens a fresh connection on the next request and the Redis
 * client reconnects within 2 s (its backoff's ceiling), so a short wait is enough.
 */
export const UNAVAILABLE_RETRY_AFTER_S = 2

/**
 * The 503 a request gets while a store this node needs (the database, the
 * rate limiter's Redis) is away: `SERVICE_UNAVAILABLE` with `Retry-After`.
 *
 * @example
 * if (isStoreUnavailable(error)) return c.json(unavailable().toBody(), 503, unavailable().headers())
 */
export function unavailable(): ApiError {
  const error = new ApiError('SERVICE_UNAVAILABLE')
  error.retryAfter = UNAVAILABLE_RETRY_AFTER_S
  return error
}

// Socket failures reaching the database (node:net), before or during a query.
const SOCKET_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
])

// PostgreSQL SQLSTATEs of a server going away or full (Appendix A): class 08
// connection exceptions, 57P01 admin shutdown (a restart), 57P02 crash
// shutdown, 57P03 cannot connect now (starting up), 53300 too many connections.
const POSTGRES_STATES = new Set(['57P01', '57P02', '57P03', '53300'])

// SQLite: another process holds the write lock past busy_timeout (db/connect.ts).
const SQLITE_CODES = new Set(['SQLITE_BUSY', 'SQLITE_BUSY_SNAPSHOT', 'SQLITE_BUSY_RECOVERY'])

// node-postgres reports a dropped connection or a full pool by message only.
const PG_MESSAGES = [
  /^Connection terminated/,
  /^Client has encountered a connection error and is not queryable/,
  /^timeout exceeded when trying to connect/,
  /^Client was closed and is not queryable/,
]

/**
 * True when `error` (or one of its causes) says the database could not be
 * reached or went away mid-query — a condition that passes on its own, so the
 * caller gets 503 and retries rather than a 500. Constraint violations and
 * other query errors are not: they are bugs or answers.
 */
export function isStoreUnavailable(error: unknown): boolean {
  for (let e = error, depth = 0; e && depth < 5; depth++) {
    const { code, message, cause } = e as { code?: unknown; message?: unknown; cause?: unknown }
    if (typeof code === 'string') {
      if (SOCKET_CODES.has(code) || SQLITE_CODES.has(code) || POSTGRES_STATES.has(code)) return true
      if (/^08[0-9A-Z]{3}$/.test(code)) return true
    }
    if (typeof message === 'string' && PG_MESSAGES.some((pattern) => pattern.test(message)))
      return true
    // AggregateError: a connect to `localhost` tries ::1 and 127.0.0.1 and fails both.
    const errors = (e as { errors?: unknown }).errors
    if (Array.isArray(errors) && errors.some((inner) => isStoreUnavailable(inner))) return true
    e = cause
  }
  return false
}
