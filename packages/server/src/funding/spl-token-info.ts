import type { SplTokenInfoResponse } from '@latchkey/protocol'
import type { Logger } from '../config.ts'
import { ApiError } from '../errors.ts'
import type { SolanaCluster } from './options.ts'

/** How long an answer is kept: decimals never change, a symbol rarely (1 hour). */
export const SPL_TOKEN_INFO_TTL_MS = 60 * 60_000

const TOKEN_PROGRAM = 'TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA'
const TOKEN_2022_PROGRAM = 'TokenzQdBNbLqP5VEhdkAS6EPFLC1PHnBqCXEpPxuEb'
const WRAPPED_SOL = 'So11111111111111111111111111111111111111112'

/** Symbols of well-known mints by cluster (Circle's and Tether's published mint addresses). */
const KNOWN_SYMBOLS: Record<SolanaCluster, Record<string, string>> = {
  'mainnet-beta': {
    EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v: 'USDC',
    Es9vMFrzaCERmJfrF4H2FYD4KCoNkY11McCe8BenwNYB: 'USDT',
    [WRAPPED_SOL]: 'SOL',
  },
  devnet: { '4zMMC9srt5Ri5X14GAgXhaHii3GnPAEERYPJgZJDncDU': 'USDC', [WRAPPED_SOL]: 'SOL' },
  testnet: { [WRAPPED_SOL]: 'SOL' },
}

// SPL Token mint layout: mint authority (COption<Pubkey>, 36), supply (u64), decimals, initialised.
const MINT_SIZE = 82
const DECIMALS_OFFSET = 44
const INITIALIZED_OFFSET = 45
// Token-2022: the base account padded to 165 bytes, the account type (1: mint), then TLV extensions.
const ACCOUNT_TYPE_OFFSET = 165
const TOKEN_METADATA_EXTENSION = 19

/**
 * The symbol in a Token-2022 mint's TokenMetadata extension (type 19:
 * update authority, mint, then borsh strings name, symbol, uri), or undefined.
 */
export function token2022Symbol(data: Buffer): string | undefined {
  if (data.length <= ACCOUNT_TYPE_OFFSET || data[ACCOUNT_TYPE_OFFSET] !== 1) return undefined
  let at = ACCOUNT_TYPE_OFFSET + 1
  while (at + 4 <= data.length) {
    const type = data.readUInt16LE(at)
    const length = data.readUInt16LE(at + 2)
    const value = data.subarray(at + 4, at + 4 + length)
    if (type === 0 || value.length !== length) return undefined
    if (type === TOKEN_METADATA_EXTENSION) {
      let field = 64
      const text = (): string | undefined => {
        if (field + 4 > value.length) return undefined
        const size = value.readUInt32LE(field)
        const bytes = value.subarray(field + 4, field + 4 + size)
        field += 4 + size
        return bytes.length === size ? bytes.toString('utf8') : undefined
      }
      if (text() === undefined) return undefined
      const symbol = text()?.trim()
      return symbol && symbol.length <= 32 ? symbol : undefined
    }
    at += 4 + length
  }
  return undefined
}

interface Entry {
  expiresAt: number
  info: Promise<SplTokenInfoResponse>
}

export interface SplTokenInfoOptions {
  rpcUrls: Record<SolanaCluster, string>
  timeoutMs: number
  now: () => number
  logger: Logger
}

/**
 * `GET /api/v1/spl_token_info` (spec 03 §7 "Prices and tokens"): a mint's
 * decimals, read from the mint account through the server's RPC endpoint
 * for the cluster (`getAccountInfo`, base64), and its symbol from the table
 * of well-known mints, else the Token-2022 metadata extension. Answers are
 * kept in memory for an hour (requests that miss together share the call);
 * failures are not kept. No account, or an account that is not a mint:
 * 404 UNKNOWN_TOKEN; a mint without a known symbol: 404 UNKNOWN_TOKEN; the
 * RPC failing: 424 TOKEN_DETAILS_FAILED.
 *
 * @example
 * const tokens = new SplTokenInfo({ rpcUrls, timeoutMs: 10_000, now: Date.now, logger })
 * await tokens.lookup('devnet', '4zMMC9srt5Ri5X14GAgXhaHii3GnPAEERYPJgZJDncDU') // { symbol: 'USDC', decimals: 6 }
 */
export class SplTokenInfo {
  readonly #cache = new Map<string, Entry>()

  constructor(private readonly options: SplTokenInfoOptions) {}

  lookup(cluster: SolanaCluster, mint: string): Promise<SplTokenInfoResponse> {
    const key = `${cluster}:${mint}`
    const now = this.options.now()
    const hit = this.#cache.get(key)
    if (hit && hit.expiresAt > now) return hit.info
    // Expired entries go when next asked for; the map holds at most the mints asked in an hour.
    if (hit) this.#cache.delete(key)
    const info = this.#read(cluster, mint)
    this.#cache.set(key, { expiresAt: now + SPL_TOKEN_INFO_TTL_MS, info })
    info.catch(() => this.#cache.delete(key))
    return info
  }

  async #read(cluster: SolanaCluster, mint: string): Promise<SplTokenInfoResponse> {
    const account = await this.#accountInfo(cluster, mint)
    if (!account) throw new ApiError('UNKNOWN_TOKEN', `No mint ${mint} on ${cluster}`)
    const isToken2022 = account.owner === TOKEN_2022_PROGRAM
    const data = account.data
    if (
      (account.owner !== TOKEN_PROGRAM && !isToken2022) ||
      data.length < MINT_SIZE ||
      (data.length > MINT_SIZE && data[ACCOUNT_TYPE_OFFSET] !== 1) ||
      data[INITIALIZED_OFFSET] !== 1
    )
      throw new ApiError('UNKNOWN_TOKEN', `${mint} is not a token mint on ${cluster}`)
    const decimals = data[DECIMALS_OFFSET] as number
    const symbol = KNOWN_SYMBOLS[cluster][mint] ?? (isToken2022 ? token2022Symbol(data) : undefined)
    if (!symbol) throw new ApiError('UNKNOWN_TOKEN', `No symbol is known for the mint ${mint}`)
    return { symbol, decimals }
  }

  /** The account's owner and data, or null when there is none. */
  async #accountInfo(
    cluster: SolanaCluster,
    address: string,
  ): Promise<{ owner: string; data: Buffer } | null> {
    const controller = new AbortController()
    const timer = setTimeout(() => controller.abort(), this.options.timeoutMs)
    const failed = (why: string): never => {
      this.options.logger.warn(`spl token info: the ${cluster} RPC ${why}`)
      throw new ApiError('TOKEN_DETAILS_FAILED')
    }
    try {
      const response = await fetch(this.options.rpcUrls[cluster], {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          jsonrpc: '2.0',
          id: 1,
          method: 'getAccountInfo',
          params: [address, { encoding: 'base64', commitment: 'confirmed' }],
        }),
        redirect: 'error',
        signal: controller.signal,
      }).catch(() => failed(controller.signal.aborted ? 'timed out' : 'could not be reached'))
      if (!response.ok) return failed(`answered ${response.status}`)
      const body = (await response.json().catch(() => null)) as {
        result?: { value: { owner?: unknown; data?: unknown } | null }
        error?: { message?: unknown }
      } | null
      if (!body || body.error || !body.result) return failed('answered an error')
      const value = body.result.value
      if (value === null) return null
      const [encoded, encoding] = Array.isArray(value.data) ? value.data : []
      if (typeof value.owner !== 'string' || typeof encoded !== 'string' || encoding !== 'base64')
        return failed('answered an unreadable account')
      return { owner: value.owner, data: Buffer.from(encoded, 'base64') }
    } finally {
      clearTimeout(timer)
    }
  }
}
