import { generateKeyPairSync, type KeyObject } from 'node:crypto'
import { decodeProtectedHeader, jwtVerify } from 'jose'
import { type FakeRequest, listen, randomToken, sendJson } from './fakes/http.ts'

/**
 * A local Coinbase Developer Platform for the Onramp server APIs, as
 * docs.cdp.coinbase.com documents them:
 *
 * - `POST /onramp/v1/token` (Session Token API): body `{ addresses: [{
 *   address, blockchains }], assets?, clientIp? }`, answer `{ token,
 *   channel_id }`.
 * - `GET /onramp/v1/buy/user/{partnerUserRef}/transactions` (Transaction
 *   Status API): answer `{ transactions: [...newest first], next_page_key,
 *   total_count }`.
 *
 * Every call must carry `Authorization: Bearer <CDP JWT>`, which the fake
 * verifies as Coinbase does: signature against the key's public half
 * (ES256 or EdDSA), header `kid` = key name and a `nonce`, `iss` 'cdp',
 * `sub` = key name, `nbf`/`exp` around its clock and at most 120 s apart,
 * and `uri` = `<METHOD> <host><path>` of this very request. Anything else is
 * 401 with gRPC-gateway's error body (`{ code: 16, message, details }`).
 * Failure modes: `error` (500), `hang` (never answers), `garbage` (200 that
 * is not JSON).
 *
 * @example
 * const key = createCdpKey('ec')
 * const cb = await startFakeCoinbase({ key, now: clock.now })
 * createLatchkeyServer({ funding: { coinbase: { apiUrl: cb.url } } })
 */
export interface FakeCoinbase {
  /** The API root to configure (`funding.coinbase.apiUrl`). */
  url: string
  /** Sessions minted: the verified JWT claims and the request body. */
  sessions: Array<{ token: string; body: SessionBody; claims: Record<string, unknown> }>
  /** Every request that reached the fake, in order (also the refused and the hung ones). */
  requests: Array<{ method: string; path: string; status: number | 'hung' }>
  /** Resolves at the next request the fake receives (a test waits on it, not on a clock). */
  nextRequest(): Promise<void>
  /** Adds a transaction (newest first) under `partnerUserRef` with a documented status. */
  addTransaction(partnerUserRef: string, status: OnrampStatus): void
  setMode(mode: 'ok' | 'error' | 'hang' | 'garbage'): void
  close(): Promise<void>
}

export type OnrampStatus =
  | 'ONRAMP_TRANSACTION_STATUS_CREATED'
  | 'ONRAMP_TRANSACTION_STATUS_IN_PROGRESS'
  | 'ONRAMP_TRANSACTION_STATUS_SUCCESS'
  | 'ONRAMP_TRANSACTION_STATUS_FAILED'

interface SessionBody {
  addresses: Array<{ address: string; blockchains: string[] }>
  assets?: string[]
  clientIp?: string
}

/** A CDP secret API key as the portal hands it out, and its public half for the fake. */
export interface TestCdpKey {
  name: string
  /** EC: a SEC1 PEM (`-----BEGIN EC PRIVATE KEY-----`); Ed25519: base64 of seed + public key. */
  secret: string
  publicKey: KeyObject
  alg: 'ES256' | 'EdDSA'
}

/** A fresh CDP key of either kind the portal issues (ECDSA P-256 or Ed25519). */
export function createCdpKey(kind: 'ec' | 'ed25519', name?: string): TestCdpKey {
  const keyName = name ?? `organizations/${crypto.randomUUID()}/apiKeys/${crypto.randomUUID()}`
  if (kind === 'ec') {
    const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' })
    const secret = privateKey.export({ type: 'sec1', format: 'pem' }).toString()
    return { name: keyName, secret, publicKey, alg: 'ES256' }
  }
  const { privateKey, publicKey } = generateKeyPairSync('ed25519')
  const jwk = privateKey.export({ format: 'jwk' })
  const raw = Buffer.concat([
    Buffer.from(jwk.d ?? '', 'base64url'),
    Buffer.from(jwk.x ?? '', 'base64url'),
  ])
  return { name: keyName, secret: raw.toString('base64'), publicKey, alg: 'EdDSA' }
}

export async function startFakeCoinbase(options: {
  key: Pick<TestCdpKey, 'name' | 'publicKey' | 'alg'>
  /** The fake's clock (epoch ms), for nbf/exp; default Date.now. */
  now?: () => number
}): Promise<FakeCoinbase> {
  const now = options.now ?? Date.now
  let mode: 'ok' | 'error' | 'hang' | 'garbage' = 'ok'
  const sessions: FakeCoinbase['sessions'] = []
  const requests: FakeCoinbase['requests'] = []
  const transactions = new Map<string, Array<{ status: OnrampStatus }>>()
  let waiters: Array<() => void> = []

  /** The verified claims, or why the JWT is refused. */
  async function authenticate(req: FakeRequest): Promise<Record<string, unknown> | string> {
    const bearer = /^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1]
    if (!bearer) return 'missing bearer token'
    try {
      const header = decodeProtectedHeader(bearer)
      if (header.kid !== options.key.name) return 'unknown key'
      if (typeof header.nonce !== 'string' || header.nonce === '') return 'no nonce'
      const { payload } = await jwtVerify(bearer, options.key.publicKey, {
        algorithms: [options.key.alg],
        issuer: 'cdp',
        subject: options.key.name,
        currentDate: new Date(now()),
      })
      const expected = `${req.method} ${req.headers.host}${req.url.pathname}`
      if (payload.uri !== expected) return `uri must be ${expected}`
      if (
        typeof payload.nbf !== 'number' ||
        typeof payload.exp !== 'number' ||
        payload.exp - payload.nbf > 120
      )
        return 'a token lives 120 s at most'
      return payload as Record<string, unknown>
    } catch (error) {
      return (error as Error).message
    }
  }

  const server = await listen(async (req, res) => {
    const entry: FakeCoinbase['requests'][number] = {
      method: req.method,
      path: req.url.pathname,
      status: 'hung',
    }
    requests.push(entry)
    const woken = waiters
    waiters = []
    for (const wake of woken) wake()
    if (mode === 'hang') return // never answers; the caller's timeout ends it
    const send = (status: number, body: unknown) => {
      entry.status = status
      sendJson(res, status, body)
    }
    if (mode === 'error') return send(500, { code: 13, message: 'Internal error', details: [] })
    const claims = await authenticate(req)
    if (typeof claims === 'string')
      return send(401, { code: 16, message: `Unauthenticated: ${claims}`, details: [] })
    if (mode === 'garbage') {
      entry.status = 200
      res.writeHead(200, { 'content-type': 'text/html' })
      res.end('<html>upstream connect error</html>')
      return
    }
    if (req.method === 'POST' && req.url.pathname === '/onramp/v1/token') {
      let body: SessionBody
      try {
        body = JSON.parse(req.body.toString('utf8')) as SessionBody
      } catch {
        return send(400, { code: 3, message: 'invalid JSON body', details: [] })
      }
      const valid =
        Array.isArray(body.addresses) &&
        body.addresses.length > 0 &&
        body.addresses.every(
          (a) =>
            typeof a.address === 'string' &&
            Array.isArray(a.blockchains) &&
            a.blockchains.length > 0,
        )
      if (!valid) return send(400, { code: 3, message: 'addresses is required', details: [] })
      const token = randomToken('', 24)
      sessions.push({ token, body, claims })
      return send(200, { token, channel_id: '' })
    }
    const listing = /^\/onramp\/v1\/buy\/user\/([^/]+)\/transactions$/.exec(req.url.pathname)
    if (req.method === 'GET' && listing) {
      const ref = decodeURIComponent(listing[1] ?? '')
      const all = transactions.get(ref) ?? []
      const size = Number(req.url.searchParams.get('pageSize') ?? '1') || 1
      return send(200, {
        transactions: all.slice(0, size).map((t) => ({
          status: t.status,
          partner_user_ref: ref,
          purchase_currency: 'USDC',
          purchase_network: 'base',
        })),
        next_page_key: all.length > size ? 'next' : '',
        total_count: String(all.length),
      })
    }
    return send(404, { code: 5, message: 'Not Found', details: [] })
  })

  return {
    url: server.url,
    sessions,
    requests,
    nextRequest: () => new Promise<void>((resolve) => waiters.push(resolve)),
    addTransaction(ref, status) {
      transactions.set(ref, [{ status }, ...(transactions.get(ref) ?? [])])
    },
    setMode(next) {
      mode = next
    },
    close: server.close,
  }
}
