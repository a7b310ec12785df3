import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'

/** Relay's chain id for Solana (mainnet) and devnet, as its `/chains` lists them. */
const SOLANA_CHAIN_IDS = new Set([792703809, 1936682084])
const SOLVER = '0xf70da97812cb96acdf810712aa562db8dfa3dbef'

/**
 * A local Relay bridge API for tests (unit and e2e), answering the
 * documented shapes: `POST /quote` (steps[].items[].data — an EVM
 * transaction, or Solana instructions when the origin is Solana — and
 * details.currencyIn/currencyOut), errors as `{ message, errorCode }`, and
 * `GET /requests/v2?hash=` (`{ requests: [] }` until the deposit is known,
 * then the scripted statuses: waiting, pending, delayed, success, refund,
 * failure). CORS is open.
 */
export interface FakeRelay {
  /** `funding_config.bridge.api_url`. */
  url: string
  /** The next quotes fail with this HTTP status and Relay's error body (until cleared with null). */
  failQuotes(failure: { status: number; message: string; errorCode: string } | null): void
  /**
   * The statuses `/requests/v2?hash=` answers for this deposit, one per read;
   * the last one repeats. Unknown hashes answer `{ requests: [] }`.
   */
  setStatuses(hash: string, statuses: string[]): void
  /** The next `count` status reads answer HTTP `status` (default 500). */
  failNext(count: number, status?: number): void
  /** The body of every POST /quote, in order. */
  readonly quotes: readonly Record<string, unknown>[]
  /** Every status read's hash, in order. */
  readonly statusReads: readonly string[]
  close(): Promise<void>
}

/** A System program Transfer's data as Relay sends it: hex of u32 LE 2, then u64 LE lamports. */
function systemTransferData(lamports: bigint): string {
  const bytes = Buffer.alloc(12)
  bytes.writeUInt32LE(2, 0)
  bytes.writeBigUInt64LE(lamports, 4)
  return bytes.toString('hex')
}

export async function startFakeRelay(): Promise<FakeRelay> {
  let quoteFailure: { status: number; message: string; errorCode: string } | null = null
  let statusFailures = { count: 0, status: 500 }
  const statuses = new Map<string, string[]>()
  const quotes: Record<string, unknown>[] = []
  const statusReads: string[] = []

  const answer = (response: ServerResponse, status: number, body: unknown) => {
    response.writeHead(status, {
      'content-type': 'application/json; charset=utf-8',
      'access-control-allow-origin': '*',
    })
    response.end(JSON.stringify(body))
  }

  const readJson = async (request: IncomingMessage): Promise<unknown> => {
    const chunks: Buffer[] = []
    for await (const chunk of request) chunks.push(chunk as Buffer)
    try {
      return JSON.parse(Buffer.concat(chunks).toString('utf8'))
    } catch {
      return undefined
    }
  }

  const quote = (response: ServerResponse, body: unknown) => {
    const input = (body ?? {}) as Record<string, unknown>
    quotes.push(input)
    if (quoteFailure)
      return answer(response, quoteFailure.status, {
        message: quoteFailure.message,
        errorCode: quoteFailure.errorCode,
      })
    const { user, originChainId, destinationChainId, amount, originCurrency, destinationCurrency } =
      input
    if (
      typeof user !== 'string' ||
      typeof originChainId !== 'number' ||
      typeof destinationChainId !== 'number' ||
      typeof amount !== 'string' ||
      !/^\d+$/.test(amount) ||
      typeof originCurrency !== 'string' ||
      typeof destinationCurrency !== 'string'
    )
      return answer(response, 400, { message: 'Invalid request body', errorCode: 'INVALID_INPUT' })
    if (BigInt(amount) === 0n)
      return answer(response, 400, {
        message: 'Amount is too low to cover fees',
        errorCode: 'AMOUNT_TOO_LOW',
      })
    const fromSolana = SOLANA_CHAIN_IDS.has(originChainId)
    const toSolana = SOLANA_CHAIN_IDS.has(destinationChainId)
    const requestId = `0x${quotes.length.toString(16).padStart(64, '0')}`
    const inDecimals = fromSolana ? 9 : 18
    const outDecimals = toSolana ? 9 : 18
    // A fixed price: 1 ETH = 20 SOL, minus a 1% fee.
    const rate = fromSolana === toSolana ? 1 : fromSolana ? 1 / 20 : 20
    const amountIn = Number(amount) / 10 ** inDecimals
    const amountOut = amountIn * rate * 0.99
    const data = fromSolana
      ? {
          instructions: [
            {
              keys: [
                { pubkey: user, isSigner: true, isWritable: true },
                {
                  pubkey: 'F7p3dFrjRTbtRp8FRF6qHLomXbKRBzpvBLjtQcfcgmNe',
                  isSigner: false,
                  isWritable: true,
                },
              ],
              programId: '11111111111111111111111111111111',
              data: systemTransferData(BigInt(amount)),
            },
          ],
          addressLookupTableAddresses: [],
        }
      : { from: user, to: SOLVER, data: '0x58109c', value: amount, chainId: originChainId }
    return answer(response, 200, {
      steps: [
        {
          id: 'deposit',
          action: 'Confirm transaction in your wallet',
          description: 'Depositing funds to the relayer to execute the swap',
          kind: 'transaction',
          requestId,
          items: [
            {
              status: 'incomplete',
              data,
              check: { endpoint: `/intents/status?requestId=${requestId}`, method: 'GET' },
            },
          ],
        },
      ],
      fees: {},
      details: {
        operation: 'bridge',
        sender: user,
        recipient: input.recipient ?? user,
        currencyIn: {
          currency: { chainId: originChainId, address: originCurrency, decimals: inDecimals },
          amount,
          amountFormatted: String(amountIn),
        },
        currencyOut: {
          currency: {
            chainId: destinationChainId,
            address: destinationCurrency,
            decimals: outDecimals,
          },
          amount: String(Math.round(amountOut * 10 ** outDecimals)),
          amountFormatted: String(amountOut),
        },
      },
    })
  }

  const requestStatus = (response: ServerResponse, hash: string) => {
    statusReads.push(hash)
    if (statusFailures.count > 0) {
      statusFailures = { ...statusFailures, count: statusFailures.count - 1 }
      return answer(response, statusFailures.status, {
        message: 'Internal server error',
        errorCode: 'INTERNAL',
      })
    }
    const script = statuses.get(hash)
    if (!script || script.length === 0) return answer(response, 200, { requests: [] })
    const status = script.length > 1 ? (script.shift() as string) : (script[0] as string)
    return answer(response, 200, {
      requests: [
        {
          id: `0x${hash.slice(2).padStart(64, '0').slice(0, 64)}`,
          status,
          user: '0x456bccd1eaa77d5cc5ace1723b5dcca00d67cdea',
          recipient: '0x456bccd1eaa77d5cc5ace1723b5dcca00d67cdea',
          data: { inTxs: [{ hash, type: 'onchain' }], outTxs: [] },
          createdAt: '2026-11-28T10:00:00.000Z',
          updatedAt: '2026-11-28T10:00:05.000Z',
        },
      ],
    })
  }

  const server = createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://localhost')
    if (request.method === 'OPTIONS') {
      response.writeHead(204, {
        'access-control-allow-origin': '*',
        'access-control-allow-headers': '*',
        'access-control-allow-methods': 'GET, POST',
      })
      return response.end()
    }
    if (request.method === 'POST' && url.pathname === '/quote') {
      readJson(request).then((body) => quote(response, body))
      return
    }
    if (request.method === 'GET' && url.pathname === '/requests/v2')
      return requestStatus(response, url.searchParams.get('hash') ?? '')
    return answer(response, 404, { message: 'Route not found', errorCode: 'NOT_FOUND' })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo

  return {
    url: `http://127.0.0.1:${port}`,
    failQuotes(failure) {
      quoteFailure = failure
    },
    setStatuses(hash, list) {
      statuses.set(hash, [...list])
    },
    failNext(count, status = 500) {
      statusFailures = { count, status }
    },
    quotes,
    statusReads,
    close: () =>
      new Promise((resolve, reject) => {
        server.closeAllConnections()
        server.close((error) => (error ? reject(error) : resolve()))
      }),
  }
}
