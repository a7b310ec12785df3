import { type PriceSource, PriceSourceError } from './types.ts'

/**
 * CoinGecko's public API (https://docs.coingecko.com): the keyless or Demo
 * API at https://api.coingecko.com/api/v3, the Pro API at
 * https://pro-api.coingecko.com/api/v3, or anything that speaks its
 * `simple/price` (a proxy, a local fake).
 */
export interface CoinGeckoOptions {
  /** The API root, without `/simple/price`. */
  apiUrl: string
  /** Sent in `apiKeyHeader` on every call; unset: keyless (rate-limited by IP). */
  apiKey?: string
  /** Default `x-cg-demo-api-key`; a Pro key goes in `x-cg-pro-api-key`. */
  apiKeyHeader?: string
  /** Give up on a call after this long (default 10 s). */
  timeoutMs?: number
}

export const DEFAULT_PRICE_API_KEY_HEADER = 'x-cg-demo-api-key'
const DEFAULT_TIMEOUT_MS = 10_000
const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]'])

/**
 * The price options from LATCHKEY_PRICE_API_URL, LATCHKEY_PRICE_API_KEY and
 * LATCHKEY_PRICE_API_KEY_HEADER; undefined (prices off) without the URL.
 * Called by `loadConfigFromEnv` with its `env` (config.ts stays the one
 * reader of the environment).
 */
export function coinGeckoOptionsFromEnv(env: NodeJS.ProcessEnv): CoinGeckoOptions | undefined {
  const apiUrl = env.LATCHKEY_PRICE_API_URL
  if (!apiUrl) {
    if (env.LATCHKEY_PRICE_API_KEY)
      throw new Error(
        'LATCHKEY_PRICE_API_KEY needs LATCHKEY_PRICE_API_URL (prices are off without it)',
      )
    return undefined
  }
  return {
    apiUrl,
    apiKey: env.LATCHKEY_PRICE_API_KEY || undefined,
    apiKeyHeader: env.LATCHKEY_PRICE_API_KEY_HEADER || undefined,
  }
}

/**
 * USD prices from `GET {apiUrl}/simple/price?ids=<ids>&vs_currencies=usd`,
 * which answers `{ "<id>": { "usd": <number> } }` and leaves out ids it does
 * not know. The key travels in a header, never in the URL (CoinGecko's
 * advice: URLs end up in logs). No redirects are followed.
 *
 * @example
 * const source = new CoinGeckoPriceSource({ apiUrl: 'https://api.coingecko.com/api/v3', apiKey })
 * await source.usdPrices(['ethereum']) // { ethereum: 3012.5 }
 */
export class CoinGeckoPriceSource implements PriceSource {
  readonly #base: URL
  readonly #headers: Record<string, string>
  readonly #timeoutMs: number

  /** Throws on a URL that is not http(s), or carries credentials, a query or a fragment; in production, on http to anything but loopback. */
  constructor(options: CoinGeckoOptions, { production = false }: { production?: boolean } = {}) {
    let url: URL
    try {
      url = new URL(options.apiUrl)
    } catch {
      throw new Error(`LATCHKEY_PRICE_API_URL is not a URL: ${options.apiUrl}`)
    }
    if (url.protocol !== 'https:' && url.protocol !== 'http:')
      throw new Error('LATCHKEY_PRICE_API_URL must be an http(s) URL')
    if (url.username || url.password || url.search || url.hash)
      throw new Error('LATCHKEY_PRICE_API_URL must have no credentials, query or fragment')
    if (production && url.protocol !== 'https:' && !LOOPBACK_HOSTS.has(url.hostname))
      throw new Error('LATCHKEY_PRICE_API_URL must be https in production')
    const header = options.apiKeyHeader ?? DEFAULT_PRICE_API_KEY_HEADER
    if (!/^[A-Za-z0-9-]+$/.test(header))
      throw new Error(`LATCHKEY_PRICE_API_KEY_HEADER is not a header name: ${header}`)
    this.#base = new URL(`${url.href.replace(/\/+$/, '')}/simple/price`)
    this.#headers = { accept: 'application/json' }
    if (options.apiKey) this.#headers[header.toLowerCase()] = options.apiKey
    this.#timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS
  }

  async usdPrices(ids: readonly string[]): Promise<Record<string, number>> {
    const url = new URL(this.#base)
    url.searchParams.set('ids', ids.join(','))
    url.searchParams.set('vs_currencies', 'usd')
    const host = url.host
    let response: Response
    try {
      response = await fetch(url, {
        headers: this.#headers,
        redirect: 'error',
        signal: AbortSignal.timeout(this.#timeoutMs),
      })
    } catch (error) {
      const why = error instanceof Error && error.name === 'TimeoutError' ? 'timed out' : 'failed'
      throw new PriceSourceError(`${host} could not be reached (${why})`)
    }
    const body: unknown = await response.json().catch(() => undefined)
    if (!response.ok) {
      // CoinGecko's error body: { status: { error_code, error_message } } (10002: key missing, 10010/10011: wrong key for the host).
      const code = (body as { status?: { error_code?: unknown } } | undefined)?.status?.error_code
      const detail = typeof code === 'number' ? `, error_code ${code}` : ''
      throw new PriceSourceError(`${host} answered ${response.status}${detail}`)
    }
    if (typeof body !== 'object' || body === null)
      throw new PriceSourceError(`${host} answered something other than a JSON object`)
    const prices: Record<string, number> = {}
    for (const id of ids) {
      const usd = (body as Record<string, { usd?: unknown } | undefined>)[id]?.usd
      if (typeof usd === 'number' && Number.isFinite(usd) && usd >= 0) prices[id] = usd
    }
    return prices
  }
}
