import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'

/**
 * A local MoonPay REST API for tests (unit and e2e): `GET
 * /v1/transactions/ext/{externalTransactionId}?apiKey=` answers as MoonPay
 * documents it — an array of buy transactions (an external id is not
 * unique), 404 `NotFoundError` while the user has not submitted the
 * purchase, 401 for a wrong publishable key — and fails on demand (500s).
 * CORS is open, as MoonPay's API is for a browser.
 */
export interface FakeMoonpay {
  /** e.g. http://127.0.0.1:41234: `funding_config.moonpay.api_url`. */
  url: string
  publishableKey: string
  /** The transactions MoonPay holds under this external id; [] or omitted: 404. */
  setTransactions(externalTransactionId: string, transactions: MoonpayTransactionWire[]): void
  /** The next `count` status reads answer `status` (default 500) with MoonPay's error body. */
  failNext(count: number, status?: number): void
  /** Every path read so far (with query), in order. */
  readonly requests: readonly string[]
  /** Resolves at the next request the server answers (after the answer is written). */
  nextRequest(): Promise<string>
  close(): Promise<void>
}

/** A buy transaction as MoonPay's API returns it (the fields Latchkey reads, and a few more). */
export interface MoonpayTransactionWire {
  id: string
  createdAt: string
  updatedAt: string
  status: 'waitingPayment' | 'pending' | 'waitingAuthorization' | 'failed' | 'completed' | string
  paymentMethod: string
  cardPaymentType?: string | null
  baseCurrencyAmount: number
  quoteCurrencyAmount: number | null
  feeAmount: number
  extraFeeAmount: number
  networkFeeAmount: number
  areFeesIncluded: boolean
  walletAddress: string
  cryptoTransactionId: string | null
  failureReason: string | null
  externalTransactionId: string
  baseCurrency: { code: string; type: 'fiat'; precision: number }
  currency: { code: string; type: 'crypto'; precision: number; name: string }
}

/** A MoonPay buy transaction shaped like the API's example, with `overrides`. */
export function moonpayTransaction(
  overrides: Partial<MoonpayTransactionWire> = {},
): MoonpayTransactionWire {
  return {
    id: 'bda09e91-559f-4e7a-807a-cdec1a903d9d',
    createdAt: '2026-11-28T10:00:03.640Z',
    updatedAt: '2026-11-28T10:00:31.251Z',
    status: 'pending',
    paymentMethod: 'credit_debit_card',
    cardPaymentType: 'card',
    baseCurrencyAmount: 295.45,
    quoteCurrencyAmount: 0.1819,
    feeAmount: 3.99,
    extraFeeAmount: 0,
    networkFeeAmount: 0.56,
    areFeesIncluded: true,
    walletAddress: '0xc216eD2D6c295579718dbd4a797845CdA70B3C36',
    cryptoTransactionId: null,
    failureReason: null,
    externalTransactionId: 'ext-1',
    baseCurrency: { code: 'usd', type: 'fiat', precision: 2 },
    currency: { code: 'eth', type: 'crypto', precision: 4, name: 'Ethereum' },
    ...overrides,
  }
}

export async function startFakeMoonpay(
  options: { publishableKey?: string } = {},
): Promise<FakeMoonpay> {
  const publishableKey = options.publishableKey ?? 'pk_test_latchkey'
  const transactions = new Map<string, MoonpayTransactionWire[]>()
  const requests: string[] = []
  const waiters: ((path: string) => void)[] = []
  let failures: { count: number; status: number } = { count: 0, status: 500 }

  const answer = (response: ServerResponse, status: number, body: unknown) => {
    response.writeHead(status, {
      'content-type': 'application/json; charset=utf-8',
      'access-control-allow-origin': '*',
    })
    response.end(JSON.stringify(body))
  }

  const handle = (request: IncomingMessage, response: ServerResponse) => {
    const url = new URL(request.url ?? '/', 'http://localhost')
    if (request.method === 'OPTIONS') {
      response.writeHead(204, {
        'access-control-allow-origin': '*',
        'access-control-allow-headers': '*',
        'access-control-allow-methods': 'GET',
      })
      return response.end()
    }
    const match = /^\/v1\/transactions\/ext\/([^/]+)$/.exec(url.pathname)
    if (request.method !== 'GET' || !match)
      return answer(response, 404, { errors: [], message: 'Not found', type: 'NotFoundError' })
    if (failures.count > 0) {
      failures = { ...failures, count: failures.count - 1 }
      return answer(response, failures.status, {
        errors: [],
        message: 'Something went wrong',
        type: 'InternalServerError',
      })
    }
    if (url.searchParams.get('apiKey') !== publishableKey)
      return answer(response, 401, {
        errors: [],
        message: 'Invalid API key',
        type: 'UnauthorizedError',
      })
    const list = transactions.get(decodeURIComponent(match[1] ?? '')) ?? []
    if (list.length === 0)
      return answer(response, 404, {
        errors: [],
        message: 'Transaction not found',
        type: 'NotFoundError',
      })
    return answer(response, 200, list)
  }

  const server = createServer((request, response) => {
    const path = request.url ?? '/'
    if (request.method !== 'OPTIONS') requests.push(path)
    response.on('finish', () => {
      if (request.method !== 'OPTIONS') for (const waiter of waiters.splice(0)) waiter(path)
    })
    handle(request, response)
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo

  return {
    url: `http://127.0.0.1:${port}`,
    publishableKey,
    setTransactions(externalTransactionId, list) {
      transactions.set(externalTransactionId, list)
    },
    failNext(count, status = 500) {
      failures = { count, status }
    },
    requests,
    nextRequest: () => new Promise((resolve) => waiters.push(resolve)),
    close: () =>
      new Promise((resolve, reject) => {
        server.closeAllConnections()
        server.close((error) => (error ? reject(error) : resolve()))
      }),
  }
}
