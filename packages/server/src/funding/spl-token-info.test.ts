import { randomBytes } from 'node:crypto'
import { routes } from '@latchkey/protocol'
import { base58 } from '@scure/base'
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest'
import { type FakeRequest, listen, sendJson } from '../test/fakes/http.ts'
import { getTestInstance, type TestInstance } from '../test/instance.ts'
import type { Address, KitAccount } from '../test/solana-ledger/context.ts'
import { writeMint } from '../test/solana-ledger/token.ts'
import {
  type SolanaLedger,
  startSolanaLedger,
  TOKEN_2022_PROGRAM,
  TOKEN_PROGRAM,
} from '../test/solana-ledger.ts'
import { SPL_TOKEN_INFO_TTL_MS } from './spl-token-info.ts'

// GET /api/v1/spl_token_info (spec 03 §7 "Prices and tokens") against a
// real Solana ledger (LiteSVM behind JSON-RPC) as the devnet endpoint, and a
// broken RPC server as the testnet one.
const DEVNET_USDC = '4zMMC9srt5Ri5X14GAgXhaHii3GnPAEERYPJgZJDncDU'
const TIMEOUT_MS = 3_000

let ledger: SolanaLedger
let rpc: { url: string; close(): Promise<void> }
let rpcMode: 'error' | 'hang' | 'rpc-error' = 'error'
const rpcArrived: Array<() => void> = []
let rpcCalls = 0
let t: TestInstance
beforeAll(async () => {
  ledger = await startSolanaLedger()
  rpc = await listen((_req: FakeRequest, res) => {
    rpcCalls += 1
    for (const wake of rpcArrived.splice(0)) wake()
    if (rpcMode === 'hang') return
    if (rpcMode === 'rpc-error')
      return sendJson(res, 200, {
        jsonrpc: '2.0',
        error: { code: -32005, message: 'Node is behind' },
        id: 1,
      })
    sendJson(res, 503, { error: 'Service Unavailable' })
  })
  t = await getTestInstance({
    funding: {
      solanaRpcUrls: { devnet: ledger.rpcUrl, testnet: rpc.url },
      solanaRpcTimeoutMs: TIMEOUT_MS,
    },
    rateLimits: { tokenPricesPerIp: { limit: 1000, windowMs: 60_000 } },
  })
})
afterAll(async () => {
  await t?.close()
  await rpc?.close()
  await ledger?.stop()
})
afterEach(() => {
  vi.useRealTimers()
})

const info = (mint_address: string, cluster = 'devnet') =>
  t.request(`${routes.splTokenInfo}?${new URLSearchParams({ mint_address, cluster })}`)

/** Writes an account straight into the ledger (what createMint does, for layouts it has no helper for). */
function writeAccount(address: string, data: Uint8Array, owner: string) {
  ledger.svm.setAccount({
    address: address as Address,
    data,
    space: BigInt(data.length),
    executable: false,
    lamports: ledger.svm.minimumBalanceForRentExemption(
      BigInt(data.length),
    ) as KitAccount['lamports'],
    programAddress: owner as Address,
  })
}

/** A Token-2022 mint with a TokenMetadata extension (type 19: authority, mint, name, symbol, uri, extras). */
function token2022MintWithMetadata(address: string, symbol: string, decimals: number): void {
  const text = (s: string) => {
    const bytes = Buffer.from(s, 'utf8')
    const length = Buffer.alloc(4)
    length.writeUInt32LE(bytes.length)
    return Buffer.concat([length, bytes])
  }
  const metadata = Buffer.concat([
    Buffer.alloc(32, 7),
    Buffer.from(base58.decode(address)),
    text('Test Dollar'),
    text(symbol),
    text('https://example.com/token.json'),
    Buffer.alloc(4),
  ])
  const tlv = Buffer.alloc(4)
  tlv.writeUInt16LE(19, 0)
  tlv.writeUInt16LE(metadata.length, 2)
  const base = Buffer.alloc(166)
  base.set(writeMint({ mintAuthority: null, freezeAuthority: null, supply: 0n, decimals }), 0)
  base[165] = 1
  writeAccount(address, Buffer.concat([base, tlv, metadata]), TOKEN_2022_PROGRAM)
}

describe('answers', () => {
  it("a well-known mint: the table's symbol, the chain's decimals", async () => {
    ledger.createMint({ address: DEVNET_USDC, decimals: 6 })
    expect(await info(DEVNET_USDC)).toMatchObject({
      status: 200,
      body: { symbol: 'USDC', decimals: 6 },
    })
  })

  it("a Token-2022 mint's symbol from its metadata extension", async () => {
    const mint = base58.encode(randomBytes(32))
    token2022MintWithMetadata(mint, 'TUSD', 9)
    expect(await info(mint)).toMatchObject({ status: 200, body: { symbol: 'TUSD', decimals: 9 } })
  })

  it('keeps an answer an hour, then reads the chain again', async () => {
    const mint = base58.encode(randomBytes(32))
    token2022MintWithMetadata(mint, 'OLD', 2)
    expect((await info(mint)).body).toEqual({ symbol: 'OLD', decimals: 2 })
    token2022MintWithMetadata(mint, 'NEW', 4)
    t.clock.advance(SPL_TOKEN_INFO_TTL_MS - 1)
    expect((await info(mint)).body).toEqual({ symbol: 'OLD', decimals: 2 })
    t.clock.advance(1)
    expect((await info(mint)).body).toEqual({ symbol: 'NEW', decimals: 4 })
  })
})

describe('refusals', () => {
  it('no account, not a mint, or a mint without a known symbol: 404 UNKNOWN_TOKEN', async () => {
    const missing = base58.encode(randomBytes(32))
    const plain = ledger.createMint({ decimals: 6, programId: TOKEN_PROGRAM })
    const wallet = base58.encode(randomBytes(32))
    ledger.airdrop(wallet, 1_000_000n)
    for (const mint of [missing, plain, wallet]) {
      const res = await info(mint)
      expect(res, mint).toMatchObject({ status: 404, body: { code: 'UNKNOWN_TOKEN' } })
    }
  })

  it('bad queries: 400', async () => {
    for (const [mint, cluster] of [
      ['0xdeadbeef', 'devnet'],
      [DEVNET_USDC, 'localnet'],
      ['', 'devnet'],
    ]) {
      expect((await info(mint ?? '', cluster)).status).toBe(400)
    }
    expect((await t.request(routes.splTokenInfo)).status).toBe(400)
  })

  it('the RPC failing or answering an error: 424 TOKEN_DETAILS_FAILED, not kept', async () => {
    const before = rpcCalls
    for (const mode of ['error', 'error', 'rpc-error'] as const) {
      rpcMode = mode
      expect(await info(DEVNET_USDC, 'testnet')).toMatchObject({
        status: 424,
        body: { code: 'TOKEN_DETAILS_FAILED', message: 'Unable to fetch token details' },
      })
    }
    // Each request asked again: a failure is not remembered as the answer.
    expect(rpcCalls - before).toBe(3)
  })

  it('the RPC never answering: 424 once the timeout passes', async () => {
    rpcMode = 'hang'
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] })
    const arrived = new Promise<void>((resolve) => rpcArrived.push(resolve))
    const pending = info(DEVNET_USDC, 'testnet')
    await arrived
    await vi.advanceTimersByTimeAsync(TIMEOUT_MS)
    expect(await pending).toMatchObject({ status: 424, body: { code: 'TOKEN_DETAILS_FAILED' } })
  })

  it('counts against the per-IP token lookup limit', async () => {
    const limited = await getTestInstance({
      funding: { solanaRpcUrls: { devnet: ledger.rpcUrl } },
      rateLimits: { tokenPricesPerIp: { limit: 2, windowMs: 60_000 } },
    })
    try {
      const ask = () =>
        limited.request(`${routes.splTokenInfo}?mint_address=${DEVNET_USDC}&cluster=devnet`)
      expect((await ask()).status).toBe(200)
      expect((await ask()).status).toBe(200)
      expect(await ask()).toMatchObject({ status: 429, body: { code: 'TOO_MANY_REQUESTS' } })
    } finally {
      await limited.close()
    }
  })
})
