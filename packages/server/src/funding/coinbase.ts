import type { CoinbaseStatusResponse } from '@latchkey/protocol'
import { z } from 'zod'
import type { Logger } from '../config.ts'
import { ApiError } from '../errors.ts'
import { type CdpApiKey, cdpJwt } from './coinbase-jwt.ts'

/**
 * The networks Coinbase Onramp serves for us (spec 03 §5: Ethereum, Base,
 * Optimism, Polygon, Arbitrum; and Solana), by EIP-155 chain id, as its
 * `blockchains` / `defaultNetwork` names them.
 */
export const COINBASE_NETWORKS: ReadonlyMap<number | 'solana', string> = new Map<
  number | 'solana',
  string
>([
  [1, 'ethereum'],
  [8453, 'base'],
  [10, 'optimism'],
  [137, 'polygon'],
  [42161, 'arbitrum'],
  ['solana', 'solana'],
])

/** Coinbase's network name for `chain`; FUNDING_UNSUPPORTED_CHAIN ('Unsupported chainId') otherwise. */
export function coinbaseNetworkOf(chain: number | 'solana'): string {
  const network = COINBASE_NETWORKS.get(chain)
  if (!network) throw new ApiError('FUNDING_UNSUPPORTED_CHAIN')
  return network
}

const tokenAnswer = z.object({ token: z.string().min(1) })
const transactionsAnswer = z.object({
  transactions: z.array(z.object({ status: z.string() })).default([]),
})

/** Transaction Status API statuses → ours (anything not final is pending). */
function statusOf(status: string | undefined): CoinbaseStatusResponse['status'] {
  if (status === 'ONRAMP_TRANSACTION_STATUS_SUCCESS') return 'success'
  if (status === 'ONRAMP_TRANSACTION_STATUS_FAILED') return 'failure'
  return 'pending'
}

export interface CoinbaseOnrampOptions {
  /** API root (https://api.developer.coinbase.com). */
  apiUrl: string
  timeoutMs: number
  now: () => number
  logger: Logger
}

/**
 * Coinbase Onramp's server APIs (docs.cdp.coinbase.com "Onramp"), called
 * with a CDP JWT minted per request from the app's key:
 * `POST /onramp/v1/token` (Session Token API) and
 * `GET /onramp/v1/buy/user/{partnerUserRef}/transactions` (Transaction
 * Status API). A failure, a timeout or an answer that is not the documented
 * shape is logged (without the key or the token) and thrown as 502
 * ONRAMP_PROVIDER_ERROR.
 *
 * @example
 * const onramp = new CoinbaseOnramp({ apiUrl, timeoutMs: 10_000, now: Date.now, logger })
 * const token = await onramp.sessionToken(key, { address, network: 'base', asset: 'USDC' })
 */
export class CoinbaseOnramp {
  constructor(private readonly options: CoinbaseOnrampOptions) {}

  /** A single-use session token (5 minutes) for `address` on `network`, limited to `asset`. */
  async sessionToken(
    key: CdpApiKey,
    input: { address: string; network: string; asset: string; clientIp?: string },
  ): Promise<string> {
    const body = {
      addresses: [{ address: input.address, blockchains: [input.network] }],
      assets: [input.asset],
      ...(input.clientIp ? { clientIp: input.clientIp } : {}),
    }
    const answer = await this.#call(key, 'POST', '/onramp/v1/token', body)
    return this.#parse(tokenAnswer, answer, 'session token').token
  }

  /** The outcome of the newest purchase listed under `partnerUserRef`; none yet is pending. */
  async latestStatus(
    key: CdpApiKey,
    partnerUserRef: string,
  ): Promise<CoinbaseStatusResponse['status']> {
    const path = `/onramp/v1/buy/user/${encodeURIComponent(partnerUserRef)}/transactions`
    const answer = await this.#call(key, 'GET', path, undefined, '?pageSize=1')
    return statusOf(
      this.#parse(transactionsAnswer, answer, 'transaction status').transactions[0]?.status,
    )
  }

  #parse<T>(schema: z.ZodType<T>, answer: unknown, what: string): T {
    const parsed = schema.safeParse(answer)
    if (parsed.success) return parsed.data
    this.options.logger.warn(`coinbase onramp: unreadable ${what} answer`)
    throw new ApiError('ONRAMP_PROVIDER_ERROR')
  }

  async #call(
    key: CdpApiKey,
    method: 'GET' | 'POST',
    path: string,
    body?: unknown,
    query = '',
  ): Promise<unknown> {
    const url = `${this.options.apiUrl}${path}`
    const jwt = await cdpJwt(key, { method, url, now: this.options.now() })
    // A timer (not AbortSignal.timeout) so tests drive it with fake timers.
    const controller = new AbortController()
    const timer = setTimeout(() => controller.abort(), this.options.timeoutMs)
    try {
      const response = await fetch(`${url}${query}`, {
        method,
        headers: {
          authorization: `Bearer ${jwt}`,
          accept: 'application/json',
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        body: body === undefined ? undefined : JSON.stringify(body),
        redirect: 'error',
        signal: controller.signal,
      })
      const text = await response.text()
      if (!response.ok) {
        this.options.logger.warn(
          `coinbase onramp: ${method} ${path.split('/user/')[0]} answered ${response.status}`,
        )
        throw new ApiError('ONRAMP_PROVIDER_ERROR')
      }
      return JSON.parse(text) as unknown
    } catch (error) {
      if (error instanceof ApiError) throw error
      const reason = controller.signal.aborted ? 'timed out' : 'failed'
      this.options.logger.warn(`coinbase onramp: ${method} ${path.split('/user/')[0]} ${reason}`)
      throw new ApiError('ONRAMP_PROVIDER_ERROR')
    } finally {
      clearTimeout(timer)
    }
  }
}
