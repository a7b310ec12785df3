import {
  API_MAX_RETRIES,
  API_RETRY_BASE_DELAY_MS,
  API_RETRY_STATUSES,
  API_TIMEOUT_MS,
  CLIENT_NAME,
  CLIENT_VERSION,
  Header,
} from '@latchkey/protocol/constants'
import type { ErrorCode } from '@latchkey/protocol/errors'
import { type ErrorMessages, isKnownCode, loadErrorMessages } from './error-messages.ts'
import { LatchkeyError } from './errors.ts'

export interface HttpClientOptions {
  /** Base URL of the Latchkey server, e.g. `https://auth.example.com`. */
  apiUrl: string
  appId: string
  /** Returns the current access token, if any (no refresh here). */
  getAccessToken?: () => string | null
  getClientId?: () => string | null
  getAnalyticsId?: () => string | null
  fetch?: typeof fetch
  timeoutMs?: number
  maxRetries?: number
  retryBaseDelayMs?: number
  /** Injected for tests. */
  sleep?: (ms: number) => Promise<void>
}

export interface RequestOptions {
  method?: 'GET' | 'POST' | 'DELETE'
  body?: unknown
  /** Attach the bearer access token when there is one (default true). */
  auth?: boolean
  /** Use the retry policy (default true). Analytics turns it off. */
  retry?: boolean
  /** Explicit bearer token, overriding the stored one. */
  token?: string | null
  headers?: Record<string, string>
}

export interface HttpClient {
  request<T>(path: string, options?: RequestOptions): Promise<T>
}

const defaultSleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms))

/**
 * The HTTP client of spec 01 §7: app/client/analytics headers, bearer token,
 * credentials included, 20 s timeout, up to 3 retries on 408/409/425/500/502/
 * 503/504 (and on network failures) with exponential backoff from 500 ms.
 * Every failure becomes a typed `LatchkeyError`.
 *
 * @example
 * const http = createHttpClient({ apiUrl, appId })
 * const config = await http.request<AppConfig>(routes.appConfig(appId))
 */
export function createHttpClient(options: HttpClientOptions): HttpClient {
  const {
    apiUrl,
    appId,
    timeoutMs = API_TIMEOUT_MS,
    maxRetries = API_MAX_RETRIES,
    retryBaseDelayMs = API_RETRY_BASE_DELAY_MS,
    sleep = defaultSleep,
  } = options
  const base = apiUrl.replace(/\/+$/, '')

  async function attempt<T>(path: string, init: RequestOptions): Promise<T> {
    const headers: Record<string, string> = {
      [Header.appId]: appId,
      [Header.client]: `${CLIENT_NAME}:${CLIENT_VERSION}`,
      ...init.headers,
    }
    const clientId = options.getClientId?.()
    if (clientId) headers[Header.clientId] = clientId
    const analyticsId = options.getAnalyticsId?.()
    if (analyticsId) headers[Header.analyticsId] = analyticsId
    const token =
      init.token !== undefined
        ? init.token
        : init.auth === false
          ? null
          : options.getAccessToken?.()
    if (token) headers.authorization = `Bearer ${token}`
    if (init.body !== undefined) headers['content-type'] = 'application/json'

    const controller = new AbortController()
    const timer = setTimeout(() => controller.abort(), timeoutMs)
    let response: Response
    try {
      response = await (options.fetch ?? globalThis.fetch)(`${base}${path}`, {
        method: init.method ?? (init.body === undefined ? 'GET' : 'POST'),
        headers,
        body: init.body === undefined ? undefined : JSON.stringify(init.body),
        credentials: 'include',
        signal: controller.signal,
      })
    } catch (cause) {
      if (controller.signal.aborted)
        throw new LatchkeyError('TIMEOUT', `Request timed out after ${timeoutMs} ms`, { cause })
      throw new LatchkeyError('NETWORK_ERROR', 'Network request failed', { cause })
    } finally {
      clearTimeout(timer)
    }
    if (response.ok) {
      if (response.status === 204) return undefined as T
      return (await response.json()) as T
    }
    throw await toHttpError(response)
  }

  return {
    async request<T>(path: string, init: RequestOptions = {}): Promise<T> {
      const retries = init.retry === false ? 0 : maxRetries
      for (let n = 0; ; n++) {
        try {
          return await attempt<T>(path, init)
        } catch (error) {
          if (n >= retries || !isRetryable(error)) throw error
          await sleep(retryBaseDelayMs * 2 ** n)
        }
      }
    },
  }
}

function isRetryable(error: unknown): boolean {
  if (!(error instanceof LatchkeyError)) return false
  if (error.code === 'NETWORK_ERROR') return true
  return error.status !== undefined && API_RETRY_STATUSES.includes(error.status)
}

/**
 * A 429's wait in seconds: the body's `retry_after`, else the `Retry-After`
 * header (delta-seconds or an HTTP date, RFC 9110 §10.2.3); undefined when
 * neither says.
 */
function retryAfterOf(response: Response, value: unknown): number | undefined {
  if (typeof value === 'number' && Number.isFinite(value) && value > 0) return Math.ceil(value)
  const header = response.headers.get('retry-after')?.trim()
  if (!header) return undefined
  if (/^\d+$/.test(header)) return Number(header) > 0 ? Number(header) : undefined
  const at = Date.parse(header)
  if (Number.isNaN(at)) return undefined
  return Math.max(1, Math.ceil((at - Date.now()) / 1000))
}

async function toHttpError(response: Response): Promise<LatchkeyError> {
  let body:
    | { code?: unknown; message?: unknown; details?: unknown; retry_after?: unknown }
    | undefined
  try {
    body = await response.json()
  } catch {
    body = undefined
  }
  const message = typeof body?.message === 'string' ? body.message : undefined
  // The catalogue knows every code of this client (error-messages.ts).
  const catalogue = await loadErrorMessages().catch(() => undefined)
  const known = catalogue !== undefined && isKnownCode(catalogue, body?.code)
  const code: ErrorCode = known
    ? (body?.code as ErrorCode)
    : response.status === 429
      ? 'TOO_MANY_REQUESTS'
      : response.status === 401
        ? 'UNAUTHORIZED'
        : 'INTERNAL_ERROR'
  return new LatchkeyError(code, message, {
    status: response.status,
    details: body?.details,
    retryAfter: retryAfterOf(response, body?.retry_after),
    serverMessage: showsServerMessage(catalogue, response.status, known ? code : null)
      ? message
      : undefined,
  })
}

/**
 * Spec 01 §8: "HTTP 400 or 422: shows the server message", after the codes
 * the catalogue words itself. So a 400/422 shows the server's words when the
 * catalogue defers to the server for its code (`fromServer`), or when the
 * code is one this client does not know (a newer server's): never the
 * catch-all 'Something went wrong' for a refusal the server explained.
 */
function showsServerMessage(
  catalogue: ErrorMessages | undefined,
  status: number,
  knownCode: ErrorCode | null,
): boolean {
  if (status !== 400 && status !== 422) return false
  return knownCode === null || catalogue?.[knownCode].fromServer === true
}
