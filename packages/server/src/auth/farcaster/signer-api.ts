import type { Hex, LocalAccount } from 'viem'
import { mnemonicToAccount, privateKeyToAccount } from 'viem/accounts'
import { ApiError } from '../../errors.ts'

/*
 * Farcaster's signed key request API (https://docs.farcaster.xyz/reference/warpcast/signer-requests,
 * "Requesting a signer"): the app's requesting FID signs an EIP-712
 * `SignedKeyRequest` over the new ed25519 key with its custody address, posts
 * it to `POST /v2/signed-key-requests` and gets a token and a deep link the
 * user opens in their Farcaster app; `GET /v2/signed-key-request?token=`
 * reads its state.
 */

/** The EIP-712 domain of Farcaster's SignedKeyRequestValidator on Optimism. */
export const SIGNED_KEY_REQUEST_DOMAIN = {
  name: 'Farcaster SignedKeyRequestValidator',
  version: '1',
  chainId: 10,
  verifyingContract: '0x00000000FC700472606ED4fA22623Acf62c60553',
} as const

export const SIGNED_KEY_REQUEST_TYPES = {
  SignedKeyRequest: [
    { name: 'requestFid', type: 'uint256' },
    { name: 'key', type: 'bytes' },
    { name: 'deadline', type: 'uint256' },
  ],
} as const

/** Server option `farcaster.apiUrl` (config.ts `FarcasterOptions`; env LATCHKEY_FARCASTER_API_URL). */
export interface FarcasterApiOptions {
  /** Farcaster's API for signer requests, `/v2/signed-key-requests` (default https://api.warpcast.com). */
  apiUrl?: string
}

export const DEFAULT_FARCASTER_API_URL = 'https://api.warpcast.com'

/** Every Farcaster API call gives up after this long. */
export const FARCASTER_API_TIMEOUT_MS = 10_000

/** The custody account of a key as configured: a 0x private key or a BIP-39 mnemonic. */
export function custodyAccount(custodyKey: string): LocalAccount {
  const key = custodyKey.trim()
  return /^0x[0-9a-fA-F]{64}$/.test(key)
    ? privateKeyToAccount(key as Hex)
    : mnemonicToAccount(key.replace(/\s+/g, ' '))
}

/** The custody address's EIP-712 signature of `SignedKeyRequest { requestFid, key, deadline }`. */
export function signSignedKeyRequest(
  account: LocalAccount,
  message: { requestFid: bigint; key: Hex; deadline: bigint },
): Promise<Hex> {
  if (!account.signTypedData) throw new Error('the custody account cannot sign typed data')
  return account.signTypedData({
    domain: SIGNED_KEY_REQUEST_DOMAIN,
    types: SIGNED_KEY_REQUEST_TYPES,
    primaryType: 'SignedKeyRequest',
    message,
  })
}

/** A signed key request as Farcaster's API answers it (`result.signedKeyRequest`). */
export interface SignedKeyRequest {
  token: string
  deeplinkUrl: string
  /** pending, approved, completed (the key is on chain) or revoked. */
  state: string
  userFid: number | null
}

/** The API failed or answered something unreadable: 424 FARCASTER_RELAY_ERROR (`api_unavailable`). */
function apiUnavailable(): ApiError {
  return new ApiError('FARCASTER_RELAY_ERROR', undefined, { reason: 'api_unavailable' })
}

function readRequest(body: unknown): SignedKeyRequest {
  const request = (body as { result?: { signedKeyRequest?: Record<string, unknown> } } | null)
    ?.result?.signedKeyRequest
  if (
    !request ||
    typeof request.token !== 'string' ||
    typeof request.deeplinkUrl !== 'string' ||
    typeof request.state !== 'string'
  )
    throw apiUnavailable()
  const fid = request.userFid
  return {
    token: request.token,
    deeplinkUrl: request.deeplinkUrl,
    state: request.state,
    userFid: typeof fid === 'number' && Number.isSafeInteger(fid) && fid > 0 ? fid : null,
  }
}

export interface FarcasterSignerApi {
  create(body: {
    key: Hex
    requestFid: number
    signature: Hex
    deadline: number
  }): Promise<SignedKeyRequest>
  get(token: string): Promise<SignedKeyRequest>
}

/**
 * The client of Farcaster's API at `apiUrl` (server option `farcaster.apiUrl`).
 *
 * @example
 * const api = createFarcasterSignerApi('https://api.warpcast.com')
 * const { token, deeplinkUrl } = await api.create({ key, requestFid, signature, deadline })
 */
export function createFarcasterSignerApi(
  apiUrl: string,
  options: { fetch?: typeof fetch; timeoutMs?: number } = {},
): FarcasterSignerApi {
  const base = apiUrl.replace(/\/+$/, '')
  const doFetch = options.fetch ?? globalThis.fetch
  async function call(path: string, init: RequestInit): Promise<SignedKeyRequest> {
    let response: Response
    try {
      response = await doFetch(`${base}${path}`, {
        ...init,
        redirect: 'error',
        signal: AbortSignal.timeout(options.timeoutMs ?? FARCASTER_API_TIMEOUT_MS),
      })
    } catch {
      throw apiUnavailable()
    }
    const body: unknown = await response.json().catch(() => null)
    if (!response.ok) throw apiUnavailable()
    return readRequest(body)
  }
  return {
    create: (body) =>
      call('/v2/signed-key-requests', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      }),
    get: (token) =>
      call(`/v2/signed-key-request?token=${encodeURIComponent(token)}`, { method: 'GET' }),
  }
}
