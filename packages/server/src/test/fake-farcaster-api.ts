import { randomBytes } from 'node:crypto'
import { type Address, getAddress, type Hex, verifyTypedData } from 'viem'
import {
  SIGNED_KEY_REQUEST_DOMAIN,
  SIGNED_KEY_REQUEST_TYPES,
} from '../auth/farcaster/signer-api.ts'
import { listen, sendJson } from './fakes/http.ts'

/*
 * A local Farcaster API for signer requests, in the documented shape
 * (https://docs.farcaster.xyz/reference/warpcast/signer-requests):
 * `POST /v2/signed-key-requests` { key, requestFid, signature, deadline } →
 * `{ result: { signedKeyRequest: { token, deeplinkUrl, key, requestFid, state } } }`,
 * `GET /v2/signed-key-request?token=` → the same with the current `state` and,
 * once approved, `userFid`. Like Farcaster's it checks the EIP-712
 * SignedKeyRequest signature against the requesting fid's custody address
 * (here: configured), and refuses a passed deadline. The user's Farcaster app
 * is `approve` / `revoke`, also reachable over HTTP for a browser test:
 * `POST /_test/approve { token, userFid }`, `POST /_test/revoke { token }`.
 */

export interface FakeSignedKeyRequest {
  token: string
  deeplinkUrl: string
  key: Hex
  requestFid: number
  signature: Hex
  deadline: number
  state: 'pending' | 'approved' | 'revoked'
  userFid?: number
}

export interface FakeFarcasterApi {
  /** Base URL (server option `farcaster.apiUrl`). */
  url: string
  /** Requests received, in order (valid ones only). */
  requests: FakeSignedKeyRequest[]
  /** Bodies refused, with the reason, in order. */
  refused: Array<{ body: unknown; reason: string }>
  byKey(key: string): FakeSignedKeyRequest | undefined
  /** The user approves the request in their Farcaster app. */
  approve(token: string, userFid: number): void
  /** The user declines it. */
  revoke(token: string): void
  /** When false, every call answers 503. */
  setAvailable(available: boolean): void
  /** Changes the custody address of a requesting fid (a key rotation at the ID registry). */
  setCustody(fid: number, address: Address): void
  close(): Promise<void>
}

export interface FakeFarcasterApiOptions {
  /** The custody address of each requesting fid the API knows. */
  custody: Record<number, Address>
  /** Unix seconds (default the wall clock). */
  nowSeconds?: () => number
}

const error = (message: string) => ({ errors: [{ message }] })

export async function startFakeFarcasterApi(
  options: FakeFarcasterApiOptions,
): Promise<FakeFarcasterApi> {
  const requests: FakeSignedKeyRequest[] = []
  const refused: FakeFarcasterApi['refused'] = []
  let available = true
  const custodyOf: Record<number, Address> = { ...options.custody }
  const nowSeconds = options.nowSeconds ?? (() => Math.floor(Date.now() / 1000))
  const find = (token: string) => requests.find((r) => r.token === token)
  const view = (r: FakeSignedKeyRequest) => ({
    result: {
      signedKeyRequest: {
        token: r.token,
        deeplinkUrl: r.deeplinkUrl,
        key: r.key,
        requestFid: r.requestFid,
        state: r.state,
        ...(r.userFid !== undefined ? { userFid: r.userFid } : {}),
        isSponsored: false,
      },
    },
  })
  const approve = (token: string, userFid: number) => {
    const r = find(token)
    if (r?.state !== 'pending') throw new Error(`no pending signed key request ${token}`)
    r.state = 'approved'
    r.userFid = userFid
  }
  const revoke = (token: string) => {
    const r = find(token)
    if (!r) throw new Error(`no signed key request ${token}`)
    r.state = 'revoked'
  }

  async function create(body: unknown): Promise<{ status: number; answer: unknown }> {
    const { key, requestFid, signature, deadline } = (body ?? {}) as Record<string, unknown>
    const refuse = (reason: string) => {
      refused.push({ body, reason })
      return { status: 400, answer: error(reason) }
    }
    if (typeof key !== 'string' || !/^0x[0-9a-fA-F]{64}$/.test(key)) return refuse('invalid key')
    if (typeof requestFid !== 'number' || !Number.isSafeInteger(requestFid))
      return refuse('invalid requestFid')
    if (typeof deadline !== 'number' || !Number.isSafeInteger(deadline))
      return refuse('invalid deadline')
    if (typeof signature !== 'string' || !/^0x[0-9a-fA-F]+$/.test(signature))
      return refuse('invalid signature')
    if (deadline <= nowSeconds()) return refuse('deadline passed')
    const custody = custodyOf[requestFid]
    if (!custody) return refuse('unknown requestFid')
    const valid = await verifyTypedData({
      address: getAddress(custody),
      domain: SIGNED_KEY_REQUEST_DOMAIN,
      types: SIGNED_KEY_REQUEST_TYPES,
      primaryType: 'SignedKeyRequest',
      message: { requestFid: BigInt(requestFid), key: key as Hex, deadline: BigInt(deadline) },
      signature: signature as Hex,
    }).catch(() => false)
    if (!valid) return refuse('signature is not the requestFid custody address')
    const token = `0x${randomBytes(12).toString('hex')}`
    const request: FakeSignedKeyRequest = {
      token,
      deeplinkUrl: `farcaster://signed-key-request?token=${token}`,
      key: key.toLowerCase() as Hex,
      requestFid,
      signature: signature as Hex,
      deadline,
      state: 'pending',
    }
    requests.push(request)
    return { status: 200, answer: view(request) }
  }

  const server = await listen(async (req, res) => {
    res.setHeader('access-control-allow-origin', '*')
    res.setHeader('access-control-allow-headers', 'content-type')
    if (req.method === 'OPTIONS') {
      res.writeHead(204).end()
      return
    }
    const json = () => {
      try {
        return JSON.parse(req.body.toString('utf8')) as unknown
      } catch {
        return null
      }
    }
    const path = req.url.pathname
    if (path === '/_test/approve' && req.method === 'POST') {
      const { token, userFid } = json() as { token: string; userFid: number }
      approve(token, userFid)
      return sendJson(res, 200, {})
    }
    if (path === '/_test/revoke' && req.method === 'POST') {
      revoke((json() as { token: string }).token)
      return sendJson(res, 200, {})
    }
    if (!available) return sendJson(res, 503, error('unavailable'))
    if (path === '/v2/signed-key-requests' && req.method === 'POST') {
      const { status, answer } = await create(json())
      return sendJson(res, status, answer)
    }
    if (path === '/v2/signed-key-request' && req.method === 'GET') {
      const r = find(req.url.searchParams.get('token') ?? '')
      if (!r) return sendJson(res, 404, error('not found'))
      return sendJson(res, 200, view(r))
    }
    sendJson(res, 404, error('not found'))
  })

  return {
    url: server.url,
    requests,
    refused,
    byKey: (key) => [...requests].reverse().find((r) => r.key === key.toLowerCase()),
    approve,
    revoke,
    setAvailable(value) {
      available = value
    },
    setCustody(fid, address) {
      custodyOf[fid] = address
    },
    close: () => server.close(),
  }
}
