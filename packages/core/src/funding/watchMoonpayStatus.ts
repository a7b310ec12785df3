import { sleep } from '../sleep.ts'

/** Spec 03 §9 "Card status poll": every 3 s. */
export const MOONPAY_POLL_INTERVAL_MS = 3_000
/** Spec 03 §9: 3 failures allowed; the third ends the watch with serviceFailure. */
export const MOONPAY_MAX_POLL_FAILURES = 3
/** Spec 03 §4/§9 "Card status tracking start": 5 s for MoonPay, 8 s for the Coinbase-style provider. */
export const CARD_STATUS_START_DELAY_MS = { moonpay: 5_000, coinbase: 8_000 } as const

/** Spec 03 §4 "Card on-ramp status": the poll results. */
export type MoonpayStatus =
  | 'pending'
  | 'waitingAuthorization'
  | 'awaitingAuthorization'
  | 'completed'
  | 'failed'
  | 'serviceFailure'

/** One poll's reading (spec 03 §3 "Card on-ramp transaction status"). */
export interface MoonpayStatusUpdate {
  status: MoonpayStatus
  /** MoonPay's own status word ('waitingPayment', 'pending', …); undefined for serviceFailure. */
  providerStatus?: string
  paymentMethod?: string
  cardPaymentType?: string
  /** The crypto bought: 'eth', 'usdc_base', 'sol'… */
  currencyCode?: string
  /** Fiat paid. */
  baseCurrencyAmount?: number
  /** Crypto received. */
  quoteCurrencyAmount?: number
  feeAmount?: number
  extraFeeAmount?: number
  networkFeeAmount?: number
}

export interface WatchMoonpayStatusParameters {
  /** MoonPay's REST API: `funding_config.moonpay.api_url` (https://api.moonpay.com). */
  apiUrl: string
  /** The sandbox or live publishable key (`funding_config.moonpay.publishable_key`). */
  publishableKey: string
  /** From `signMoonpayUrl`. */
  externalTransactionId: string
  /** Wait before the first poll (default CARD_STATUS_START_DELAY_MS.moonpay). */
  startDelayMs?: number
  /** Every reading, the final one included. */
  onStatus: (update: MoonpayStatusUpdate) => void
  /** Stops the watch (the status screen closed): it then resolves undefined. */
  signal?: AbortSignal
  fetch?: typeof globalThis.fetch
}

const FINAL: ReadonlySet<MoonpayStatus> = new Set([
  'completed',
  'failed',
  'awaitingAuthorization',
  'serviceFailure',
])

/**
 * Follows a MoonPay purchase (spec 03 §4 "Card on-ramp status", §7 "Card
 * on-ramp"): after the start delay, `GET {apiUrl}/v1/transactions/ext/{id}
 * ?apiKey=` every 3 s. MoonPay answers an array (an external id is not
 * unique); the most recently created transaction counts. A 404 (or an
 * empty array) means the user has not submitted the purchase yet and is not
 * a failure; any other failure counts, and the third ends with
 * `serviceFailure`. `waitingAuthorization` on a credit or debit card reads
 * as `pending`. Stops on completed, failed, awaitingAuthorization or
 * serviceFailure and resolves with that last update.
 *
 * @example
 * const last = await watchMoonpayStatus({
 *   apiUrl: config.moonpay.api_url, publishableKey: config.moonpay.publishable_key,
 *   externalTransactionId, onStatus: setStatus, signal,
 * })
 * if (last?.status === 'failed' || last?.status === 'serviceFailure') backToChooser()
 */
export async function watchMoonpayStatus(
  parameters: WatchMoonpayStatusParameters,
): Promise<MoonpayStatusUpdate | undefined> {
  const { onStatus, signal } = parameters
  const fetchImpl = parameters.fetch ?? globalThis.fetch
  const url = `${parameters.apiUrl.replace(/\/+$/, '')}/v1/transactions/ext/${encodeURIComponent(
    parameters.externalTransactionId,
  )}?${new URLSearchParams({ apiKey: parameters.publishableKey })}`

  let failures = 0
  let wait = parameters.startDelayMs ?? CARD_STATUS_START_DELAY_MS.moonpay
  while (await sleep(wait, signal)) {
    wait = MOONPAY_POLL_INTERVAL_MS
    let update: MoonpayStatusUpdate | null
    try {
      update = await readStatus(fetchImpl, url, signal)
    } catch (error) {
      if (signal?.aborted) return undefined
      failures += 1
      if (failures < MOONPAY_MAX_POLL_FAILURES) continue
      console.warn(`Latchkey: MoonPay status failed ${failures} times (${describe(error)})`)
      update = { status: 'serviceFailure' }
    }
    if (signal?.aborted) return undefined
    if (!update) continue
    onStatus(update)
    if (FINAL.has(update.status)) return update
  }
  return undefined
}

interface MoonpayTransaction {
  status?: unknown
  createdAt?: unknown
  paymentMethod?: unknown
  cardPaymentType?: unknown
  currency?: { code?: unknown } | null
  baseCurrencyAmount?: unknown
  quoteCurrencyAmount?: unknown
  feeAmount?: unknown
  extraFeeAmount?: unknown
  networkFeeAmount?: unknown
}

/** null: not created yet (404 or []); throws on any other failure. */
async function readStatus(
  fetchImpl: typeof globalThis.fetch,
  url: string,
  signal: AbortSignal | undefined,
): Promise<MoonpayStatusUpdate | null> {
  const response = await fetchImpl(url, { headers: { accept: 'application/json' }, signal })
  if (response.status === 404) return null
  if (!response.ok) throw new Error(`HTTP ${response.status}`)
  const body: unknown = await response.json()
  if (!Array.isArray(body)) throw new Error('the answer is not a list of transactions')
  const transactions = body.filter(
    (item): item is MoonpayTransaction => typeof item === 'object' && item !== null,
  )
  if (transactions.length === 0) return null
  const latest = transactions.reduce((a, b) => (createdAt(b) > createdAt(a) ? b : a))
  if (typeof latest.status !== 'string') throw new Error('the transaction has no status')
  const paymentMethod = text(latest.paymentMethod)
  return {
    status: toStatus(latest.status, paymentMethod),
    providerStatus: latest.status,
    paymentMethod,
    cardPaymentType: text(latest.cardPaymentType),
    currencyCode: text(latest.currency?.code),
    baseCurrencyAmount: number(latest.baseCurrencyAmount),
    quoteCurrencyAmount: number(latest.quoteCurrencyAmount),
    feeAmount: number(latest.feeAmount),
    extraFeeAmount: number(latest.extraFeeAmount),
    networkFeeAmount: number(latest.networkFeeAmount),
  }
}

function toStatus(status: string, paymentMethod: string | undefined): MoonpayStatus {
  switch (status) {
    case 'completed':
    case 'failed':
    case 'awaitingAuthorization':
      return status
    case 'waitingAuthorization':
      // Spec 03 §4: a card's authorization wait is an ordinary pending purchase.
      return paymentMethod === 'credit_debit_card' ? 'pending' : 'waitingAuthorization'
    default:
      // 'pending', 'waitingPayment' and any status MoonPay adds later.
      return 'pending'
  }
}

const createdAt = (transaction: MoonpayTransaction) =>
  typeof transaction.createdAt === 'string' ? Date.parse(transaction.createdAt) || 0 : 0
const text = (value: unknown) => (typeof value === 'string' ? value : undefined)
const number = (value: unknown) =>
  typeof value === 'number' && Number.isFinite(value) ? value : undefined
const describe = (error: unknown) => (error instanceof Error ? error.message : String(error))
