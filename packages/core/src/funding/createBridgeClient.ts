import { LatchkeyError } from '../errors.ts'
import { formatTokenAmount } from '../transactions/format.ts'

/** Relay's chain id for Solana mainnet (its `/chains` list). */
export const RELAY_SOLANA_CHAIN_ID = 792703809
/** Relay's chain id for Solana devnet, on its testnets API. */
export const RELAY_SOLANA_DEVNET_CHAIN_ID = 1936682084
/** The native currency's address: SOL on Solana, ETH & co. elsewhere (spec 03 §3 "zero address default"). */
export const RELAY_SOLANA_NATIVE_CURRENCY = '11111111111111111111111111111111'
export const RELAY_EVM_NATIVE_CURRENCY = '0x0000000000000000000000000000000000000000'

const isSolanaChain = (id: number) =>
  id === RELAY_SOLANA_CHAIN_ID || id === RELAY_SOLANA_DEVNET_CHAIN_ID

/** Spec 03 §3 "Quote input": what to bridge, in the origin currency's base units. */
export interface BridgeQuoteInput {
  /** The wallet that pays on the origin chain. */
  user: string
  /** The wallet credited on the destination chain. */
  recipient: string
  originChainId: number
  destinationChainId: number
  /** Default: the origin chain's native currency. */
  originCurrency?: string
  /** Default: the destination chain's native currency. */
  destinationCurrency?: string
  /** Base units (wei, lamports…); with EXACT_OUTPUT, of the destination currency. */
  amount: bigint | string
  /** Default EXACT_INPUT. */
  tradeType?: 'EXACT_INPUT' | 'EXACT_OUTPUT' | 'EXPECTED_OUTPUT'
}

/** The deposit to sign on an Ethereum-style origin chain. */
export interface BridgeEvmTransaction {
  kind: 'evm'
  from: `0x${string}`
  to: `0x${string}`
  value: bigint
  chainId: number
  data: `0x${string}`
}

/** Relay's Solana instruction (hex `data`). */
export interface BridgeSolanaInstruction {
  programId: string
  keys: { pubkey: string; isSigner: boolean; isWritable: boolean }[]
  data: string
}

/** The deposit to sign on Solana: instructions to put in one transaction. */
export interface BridgeSolanaTransaction {
  kind: 'solana'
  instructions: BridgeSolanaInstruction[]
  addressLookupTableAddresses: string[]
}

export interface BridgeQuote {
  /** Relay's id for the bridge request, when it gave one (the status page uses it). */
  requestId: string | undefined
  tx: BridgeEvmTransaction | BridgeSolanaTransaction
  /**
   * What leaves the origin wallet, in whole tokens for display: formatted
   * here from `details.currencyIn.amount` and `.currency.decimals`
   * (spec 03 §9 "Token display"), not Relay's `amountFormatted`, which may
   * be any number text ('5e-10').
   */
  amountIn: string
  /** What the recipient gets, formatted the same way from `details.currencyOut`. */
  amountOut: string | undefined
}

/** Relay's request statuses (`GET /requests/v2`). */
export type BridgeRequestStatus =
  | 'waiting'
  | 'depositing'
  | 'pending'
  | 'submitted'
  | 'delayed'
  | 'success'
  | 'refund'
  /** The name Relay's newer status API gives a refund. */
  | 'refunded'
  | 'failure'

export interface BridgeStatus {
  /** `requests[0].status`, 'pending' while Relay has no request for the hash. */
  status: BridgeRequestStatus
  requestId: string | undefined
}

export interface BridgeClient {
  /** `POST /quote`. Throws BRIDGE_QUOTE_FAILED (Relay's `message` as `shortMessage`). */
  quote(input: BridgeQuoteInput): Promise<BridgeQuote>
  /** `GET /requests/v2?hash=`. Throws on a failed read. */
  status(hash: string): Promise<BridgeStatus>
  /** Relay's page for a request (or deposit hash): where the user follows a refund. */
  requestUrl(requestIdOrHash: string): string
}

export interface CreateBridgeClientParameters {
  /** `funding_config.bridge.api_url`, or `testnet_api_url` on testnets (spec 03 §7). */
  apiUrl: string
  /** Relay's website for status links; default relay.link (testnets.relay.link for a testnets API). */
  explorerUrl?: string
  fetch?: typeof globalThis.fetch
}

/**
 * The bridge-quote adapter (spec 03 §7 "Bridging", Relay's documented
 * API): quotes a deposit from one chain to the other and reads a deposit's
 * progress.
 *
 * @example
 * const bridge = createBridgeClient({ apiUrl: config.bridge.api_url })
 * const quote = await bridge.quote({
 *   user: evmAddress, recipient: solanaAddress, originChainId: 8453,
 *   destinationChainId: RELAY_SOLANA_CHAIN_ID, amount: parseEther('0.01'),
 * })
 * quote.tx // { kind: 'evm', from, to, value, chainId: 8453, data }
 */
export function createBridgeClient(parameters: CreateBridgeClientParameters): BridgeClient {
  const apiUrl = parameters.apiUrl.replace(/\/+$/, '')
  const explorerUrl = (
    parameters.explorerUrl ??
    (/testnets/.test(apiUrl) ? 'https://testnets.relay.link' : 'https://relay.link')
  ).replace(/\/+$/, '')
  const fetchImpl = parameters.fetch ?? globalThis.fetch

  return {
    async quote(input) {
      const body = {
        user: input.user,
        recipient: input.recipient,
        originChainId: input.originChainId,
        destinationChainId: input.destinationChainId,
        originCurrency: input.originCurrency ?? nativeCurrency(input.originChainId),
        destinationCurrency: input.destinationCurrency ?? nativeCurrency(input.destinationChainId),
        amount: input.amount.toString(),
        tradeType: input.tradeType ?? 'EXACT_INPUT',
      }
      let response: Response
      let answer: unknown
      try {
        response = await fetchImpl(`${apiUrl}/quote`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', accept: 'application/json' },
          body: JSON.stringify(body),
        })
        answer = await response.json().catch(() => undefined)
      } catch (error) {
        throw new LatchkeyError('BRIDGE_QUOTE_FAILED', undefined, { cause: error })
      }
      if (!response.ok) {
        const { message, errorCode } = (answer ?? {}) as { message?: unknown; errorCode?: unknown }
        throw new LatchkeyError(
          'BRIDGE_QUOTE_FAILED',
          typeof message === 'string' && message ? message : undefined,
          {
            status: response.status,
            details: { errorCode: typeof errorCode === 'string' ? errorCode : undefined },
          },
        )
      }
      return toQuote(answer)
    },

    async status(hash) {
      const response = await fetchImpl(`${apiUrl}/requests/v2?${new URLSearchParams({ hash })}`, {
        headers: { accept: 'application/json' },
      })
      if (!response.ok) throw new Error(`Bridge status: HTTP ${response.status}`)
      const answer = (await response.json()) as { requests?: { id?: unknown; status?: unknown }[] }
      const request = Array.isArray(answer?.requests) ? answer.requests[0] : undefined
      return {
        status:
          typeof request?.status === 'string' ? (request.status as BridgeRequestStatus) : 'pending',
        requestId: typeof request?.id === 'string' ? request.id : undefined,
      }
    },

    requestUrl(requestIdOrHash) {
      return `${explorerUrl}/transaction/${encodeURIComponent(requestIdOrHash)}`
    },
  }
}

function nativeCurrency(chainId: number): string {
  return isSolanaChain(chainId) ? RELAY_SOLANA_NATIVE_CURRENCY : RELAY_EVM_NATIVE_CURRENCY
}

/** Relay's `details.currencyIn` / `currencyOut`: base units, the currency's decimals, and its own text. */
interface RelayAmount {
  currency?: { decimals?: unknown }
  amount?: unknown
  amountFormatted?: unknown
}

interface RelayQuote {
  steps?: { requestId?: unknown; items?: { data?: Record<string, unknown> }[] }[]
  details?: { currencyIn?: RelayAmount; currencyOut?: RelayAmount }
}

/**
 * An amount for display from base units and decimals; failing those, Relay's
 * `amountFormatted` when it is a plain decimal. Undefined otherwise.
 */
function displayAmount(side: RelayAmount | undefined): string | undefined {
  const decimals = side?.currency?.decimals
  if (
    typeof side?.amount === 'string' &&
    /^\d+$/.test(side.amount) &&
    typeof decimals === 'number' &&
    Number.isInteger(decimals) &&
    decimals >= 0 &&
    decimals <= 255
  )
    return formatTokenAmount(BigInt(side.amount), decimals)
  const text = side?.amountFormatted
  return typeof text === 'string' && /^\d+(\.\d+)?$/.test(text) ? text : undefined
}

/** Spec 03 §7: `steps[0].items[0].data` and `details.currencyIn` (amount and decimals). */
function toQuote(answer: unknown): BridgeQuote {
  const quote = (answer ?? {}) as RelayQuote
  const step = quote.steps?.[0]
  const data = step?.items?.[0]?.data
  const amountIn = displayAmount(quote.details?.currencyIn)
  const malformed = (what: string) =>
    new LatchkeyError('BRIDGE_QUOTE_FAILED', `The bridge quote has no ${what}`, {
      details: { answer },
    })
  if (!data) throw malformed('transaction to sign')
  if (amountIn === undefined) throw malformed('input amount')
  return {
    requestId: typeof step?.requestId === 'string' ? step.requestId : undefined,
    tx: toTransaction(data, malformed),
    amountIn,
    amountOut: displayAmount(quote.details?.currencyOut),
  }
}

function toTransaction(
  data: Record<string, unknown>,
  malformed: (what: string) => LatchkeyError,
): BridgeEvmTransaction | BridgeSolanaTransaction {
  if (Array.isArray(data.instructions))
    return {
      kind: 'solana',
      instructions: data.instructions as BridgeSolanaInstruction[],
      addressLookupTableAddresses: Array.isArray(data.addressLookupTableAddresses)
        ? (data.addressLookupTableAddresses as string[])
        : [],
    }
  const { from, to, value, chainId } = data
  const hex = (v: unknown): v is `0x${string}` =>
    typeof v === 'string' && /^0x[0-9a-fA-F]*$/.test(v)
  if (!hex(from) || !hex(to) || typeof chainId !== 'number') throw malformed('valid transaction')
  const callData = data.data === undefined || data.data === null ? '0x' : data.data
  if (!hex(callData)) throw malformed('valid transaction data')
  let amount: bigint
  try {
    amount = BigInt(typeof value === 'string' || typeof value === 'number' ? value : 0)
  } catch {
    throw malformed('valid transaction value')
  }
  return { kind: 'evm', from, to, value: amount, chainId, data: callData }
}
