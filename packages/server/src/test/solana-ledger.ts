import { randomBytes } from 'node:crypto'
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { base58 } from '@scure/base'
import { LiteSVM } from 'litesvm'
import {
  type Address,
  addressParam,
  credit,
  type Handler,
  type KitAccount,
  type LedgerContext,
  RpcError,
} from './solana-ledger/context.ts'
import { ledgerMethods } from './solana-ledger/methods.ts'
import {
  ADDRESS_LOOKUP_TABLE_PROGRAM,
  associatedTokenAddress,
  MINT_SIZE,
  readMint,
  readTokenAccount,
  TOKEN_PROGRAM,
  writeLookupTable,
  writeMint,
  writeTokenAccount,
} from './solana-ledger/token.ts'

export { TOKEN_2022_PROGRAM, TOKEN_PROGRAM } from './solana-ledger/token.ts'

export interface CreateMintOptions {
  decimals?: number
  /** Null (the default) for a mint nobody can mint more of by instruction; `mintTo` still can. */
  mintAuthority?: string | null
  freezeAuthority?: string | null
  /** The Token program (default) or Token-2022. */
  programId?: string
  /** Default: a fresh random address. */
  address?: string
}

export interface SolanaLedger {
  /** `http://host:port`: point `createSolanaRpc` (or a browser page: CORS is open) at it. */
  rpcUrl: string
  /** The VM behind it, for what the helpers do not cover (`svm.expireBlockhash()`). */
  svm: LiteSVM
  /** Adds lamports to an account (creating a system account), at once. */
  airdrop(address: string, lamports: bigint): void
  /** Writes an initialised SPL mint; resolves to its address. */
  createMint(options?: CreateMintOptions): string
  /** Credits `owner`'s associated token account (created if missing); returns its address. */
  mintTo(options: { mint: string; owner: string; amount: bigint }): string
  /** Writes an active address lookup table holding `addresses` (for v0 tests); returns its address. */
  createLookupTable(addresses: string[]): string
  /** The associated token account address of `owner` for `mint`. */
  associatedTokenAddress(owner: string, mint: string): string
  stop(): Promise<void>
}

const MAX_BODY = 10 * 1024 * 1024
const BIGINT = '\u0000bigint:'

/** JSON with bigints written as plain numbers (u64 values beyond 2^53 stay exact). */
export function stringifyRpc(value: unknown): string {
  return JSON.stringify(value, (_key, v) => (typeof v === 'bigint' ? `${BIGINT}${v}` : v)).replace(
    /"\\u0000bigint:(-?\d+)"/g,
    '$1',
  )
}

type RpcRequest = { jsonrpc?: unknown; id?: unknown; method?: unknown; params?: unknown }

function answer(methods: Record<string, Handler>, request: RpcRequest): Record<string, unknown> {
  const isObject = request !== null && typeof request === 'object' && !Array.isArray(request)
  const id = isObject && request.id !== undefined ? request.id : null
  const error = (code: number, message: string, data?: unknown) => ({
    jsonrpc: '2.0',
    error: data === undefined ? { code, message } : { code, message, data },
    id,
  })
  if (!isObject || request.jsonrpc !== '2.0' || typeof request.method !== 'string') {
    return error(-32600, 'Invalid request')
  }
  const handler = Object.hasOwn(methods, request.method) ? methods[request.method] : undefined
  if (!handler) return error(-32601, 'Method not found')
  const params = request.params ?? []
  if (!Array.isArray(params)) return error(-32602, 'Invalid params: expected an array')
  try {
    return { jsonrpc: '2.0', result: handler(params) ?? null, id }
  } catch (thrown) {
    if (thrown instanceof RpcError) return error(thrown.code, thrown.message, thrown.data)
    return error(-32603, `Internal error: ${(thrown as Error)?.message ?? String(thrown)}`)
  }
}

function readBody(req: IncomingMessage): Promise<string | null> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = []
    let size = 0
    req.on('data', (chunk: Buffer) => {
      size += chunk.length
      if (size <= MAX_BODY) chunks.push(chunk)
    })
    req.on('end', () => resolve(size > MAX_BODY ? null : Buffer.concat(chunks).toString('utf8')))
    req.on('error', reject)
  })
}

async function serveRpc(
  methods: Record<string, Handler>,
  req: IncomingMessage,
  res: ServerResponse,
) {
  const headers = {
    'access-control-allow-origin': '*',
    'access-control-allow-methods': 'POST, GET, OPTIONS',
    'access-control-allow-headers': req.headers['access-control-request-headers'] ?? 'content-type',
    'access-control-max-age': '86400',
  }
  if (req.method === 'OPTIONS') return void res.writeHead(204, headers).end()
  if (req.method === 'GET' && req.url?.split('?')[0] === '/health') {
    return void res.writeHead(200, { ...headers, 'content-type': 'text/plain' }).end('ok')
  }
  if (req.method !== 'POST') {
    res.writeHead(405, { ...headers, 'content-type': 'text/plain' })
    return void res.end('Used HTTP Method is not allowed. POST or OPTIONS is required')
  }
  const body = await readBody(req)
  if (body === null) return void res.writeHead(413, headers).end()
  let reply: unknown
  try {
    const request = JSON.parse(body) as RpcRequest | RpcRequest[]
    if (!Array.isArray(request)) reply = answer(methods, request)
    else if (request.length === 0) reply = answer(methods, null as never)
    else reply = request.map((one) => answer(methods, one))
  } catch {
    reply = { jsonrpc: '2.0', error: { code: -32700, message: 'Parse error' }, id: null }
  }
  res.writeHead(200, { ...headers, 'content-type': 'application/json' }).end(stringifyRpc(reply))
}

/**
 * Starts a Solana JSON-RPC 2.0 endpoint on 127.0.0.1 backed by an in-process
 * LiteSVM: a stand-in for `solana-test-validator` that answers what
 * `@solana/kit`'s RPC asks (balances, accounts, blockhash, fees, send with or
 * without preflight, statuses, transactions, token balances) in the
 * validator's shapes. Transactions land at once; a preflight failure is the
 * validator's -32002 with its logs; with `skipPreflight` a failing
 * transaction lands with `err` and logs, and one that cannot pay its fee is
 * dropped, as on a real cluster. The ATA program is not loaded: associated
 * token accounts come from `mintTo`.
 *
 * @example
 * const ledger = await startSolanaLedger()
 * afterAll(() => ledger.stop())
 * ledger.airdrop(wallet, 2_000_000_000n)
 * const rpc = createSolanaRpc(ledger.rpcUrl)
 */
export async function startSolanaLedger({
  port = 0,
  host = '127.0.0.1',
}: {
  port?: number
  host?: string
} = {}): Promise<SolanaLedger> {
  const svm = new LiteSVM()
  const ctx: LedgerContext = { svm, history: new Map() }
  const methods = ledgerMethods(ctx)
  const server = createServer((req, res) => {
    serveRpc(methods, req, res).catch(() => {
      if (!res.headersSent) res.writeHead(500)
      res.end()
    })
  })
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(port, host, () => resolve())
  })
  const bound = (server.address() as AddressInfo).port
  const account = (address: string) => svm.getAccount(addressParam(address))
  const write = (address: string, data: Uint8Array, owner: string) =>
    svm.setAccount({
      address: address as Address,
      data,
      space: BigInt(data.length),
      executable: false,
      lamports: svm.minimumBalanceForRentExemption(BigInt(data.length)) as KitAccount['lamports'],
      programAddress: owner as Address,
    })

  return {
    rpcUrl: `http://${host.includes(':') ? `[${host}]` : host}:${bound}`,
    svm,
    airdrop: (address, lamports) => credit(ctx, addressParam(address), lamports),
    createMint: (options = {}) => {
      const address = options.address ?? base58.encode(randomBytes(32))
      const data = writeMint({
        mintAuthority: options.mintAuthority ?? null,
        freezeAuthority: options.freezeAuthority ?? null,
        supply: 0n,
        decimals: options.decimals ?? 6,
      })
      write(address, data, options.programId ?? TOKEN_PROGRAM)
      return address
    },
    mintTo: ({ mint, owner, amount }) => {
      const mintAccount = account(mint)
      const state = mintAccount.exists ? readMint(mintAccount.data as Uint8Array) : null
      if (!mintAccount.exists || !state) throw new Error(`${mint} is not a mint`)
      const program = mintAccount.programAddress
      const ata = associatedTokenAddress(owner, mint, program)
      const existing = account(ata)
      const held = existing.exists
        ? (readTokenAccount(existing.data as Uint8Array)?.amount ?? 0n)
        : 0n
      write(ata, writeTokenAccount(mint, owner, held + amount), program)
      const supply = state.supply + amount
      const data = mintAccount.data.length === MINT_SIZE ? writeMint({ ...state, supply }) : null
      if (data) write(mint, data, program)
      return ata
    },
    createLookupTable: (addresses) => {
      const address = base58.encode(randomBytes(32))
      write(address, writeLookupTable(addresses), ADDRESS_LOOKUP_TABLE_PROGRAM)
      return address
    },
    associatedTokenAddress: (owner, mint) => {
      const mintAccount = account(mint)
      return associatedTokenAddress(
        owner,
        mint,
        mintAccount.exists ? mintAccount.programAddress : TOKEN_PROGRAM,
      )
    },
    stop: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve())
        server.closeAllConnections()
      }),
  }
}
