import { listen, sendJson } from './http.ts'

/**
 * A local CoinGecko for tests, answering `GET /api/v3/simple/price?ids=&
 * vs_currencies=` as https://docs.coingecko.com documents it: `{ "<id>":
 * { "<currency>": <price> } }` for each id it knows, ids it does not know
 * left out. With `apiKey` set it wants that key in `keyHeader` (default
 * `x-cg-demo-api-key`) and answers a missing or wrong one 401 with
 * CoinGecko's error body (`{ status: { error_code: 10002, error_message } }`).
 *
 * @example
 * const cg = await startFakeCoinGecko({ prices: { ethereum: 3000 }, apiKey: 'CG-test' })
 * createLatchkeyServer({ prices: { apiUrl: cg.url, apiKey: 'CG-test' } })
 */
export interface FakeCoinGecko {
  /** The API root to configure (`prices.apiUrl`), ending in /api/v3. */
  url: string
  /** USD price by coin id; change it between calls. */
  prices: Record<string, number>
  /** Every simple/price call: its ids and the key it carried. */
  calls: Array<{ ids: string[]; key: string | undefined }>
  /** 'ok' (default), 'error' (500), 'rate-limited' (429, CoinGecko's body) or 'silent' (never answers). */
  setMode(mode: FakeCoinGeckoMode): void
  close(): Promise<void>
}

export type FakeCoinGeckoMode = 'ok' | 'error' | 'rate-limited' | 'silent'

export interface FakeCoinGeckoOptions {
  prices?: Record<string, number>
  apiKey?: string
  keyHeader?: string
}

export async function startFakeCoinGecko(
  options: FakeCoinGeckoOptions = {},
): Promise<FakeCoinGecko> {
  const keyHeader = (options.keyHeader ?? 'x-cg-demo-api-key').toLowerCase()
  const calls: FakeCoinGecko['calls'] = []
  let mode: FakeCoinGeckoMode = 'ok'
  const fake = { prices: { ...(options.prices ?? {}) } }
  const error = (code: number, message: string) => ({
    status: { error_code: code, error_message: message },
  })
  const server = await listen((req, res) => {
    if (req.method !== 'GET' || req.url.pathname !== '/api/v3/simple/price')
      return sendJson(res, 404, {
        error: 'Incorrect path. Please check https://www.coingecko.com/api/',
      })
    const key = req.headers[keyHeader]
    const ids = (req.url.searchParams.get('ids') ?? '').split(',').filter(Boolean)
    calls.push({ ids, key: typeof key === 'string' ? key : undefined })
    // The call is counted, then left open: close() ends the connection.
    if (mode === 'silent') return
    if (mode === 'error') return sendJson(res, 500, { error: 'Internal Server Error' })
    if (mode === 'rate-limited')
      return sendJson(res, 429, error(429, "You've exceeded the Rate Limit."))
    if (options.apiKey !== undefined && key === undefined)
      return sendJson(res, 401, error(10002, 'API Key Missing'))
    if (options.apiKey !== undefined && key !== options.apiKey)
      return sendJson(res, 401, error(10002, 'Incorrect API Key'))
    const currencies = (req.url.searchParams.get('vs_currencies') ?? '').split(',')
    if (ids.length === 0 || currencies[0] === '')
      return sendJson(res, 400, { error: 'Missing parameter ids or vs_currencies' })
    const answer: Record<string, Record<string, number>> = {}
    for (const id of ids) {
      const usd = fake.prices[id]
      if (usd !== undefined && currencies.includes('usd')) answer[id] = { usd }
    }
    sendJson(res, 200, answer)
  })
  return {
    url: `${server.url}/api/v3`,
    get prices() {
      return fake.prices
    },
    set prices(next) {
      fake.prices = next
    },
    calls,
    setMode(next) {
      mode = next
    },
    close: () => server.close(),
  }
}
