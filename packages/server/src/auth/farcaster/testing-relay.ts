import { randomBytes, randomUUID } from 'node:crypto'
import type { Address } from 'viem'
import { handleCors, listen, sendJson } from '../../test/fakes/http.ts'

// ---------------------------------------------------------------------------
// The relay

/** A channel as the relay holds it (relay-core RelaySession). */
export interface FakeRelayChannel {
  state: 'pending' | 'completed'
  nonce: string
  url: string
  connectUri: string
  acceptAuthAddress: boolean
  signatureParams: {
    siweUri: string
    domain: string
    nonce: string
    notBefore?: string
    expirationTime?: string
    requestId?: string
    redirectUrl?: string
  }
  metadata: { userAgent: string; ip: string }
  message?: string
  signature?: string
  authMethod?: 'custody' | 'authAddress'
  fid?: number
  username?: string
  displayName?: string
  bio?: string
  pfpUrl?: string
  custody?: Address
  verifications?: string[]
}

export interface FakeFarcasterRelay {
  /** Base URL, e.g. http://127.0.0.1:PORT (what LATCHKEY_FARCASTER_RELAY_URL would be). */
  url: string
  /** The channel for `channelToken`; undefined when unknown or already read completed. */
  channel(channelToken: string): FakeRelayChannel | undefined
  /** When false, every relay call answers 503 (the relay is down). */
  setAvailable(available: boolean): void
  /** Bodies of POST /v1/channel the relay received, in order. */
  createdChannels: FakeRelayChannel['signatureParams'][]
  close(): Promise<void>
}

export interface FakeFarcasterRelayOptions {
  /** Base of the connect URI the QR code shows (default the Farcaster app's SIWF page). */
  connectUriBase?: string
  /** When set, /v1/channel/authenticate requires it in x-farcaster-auth-relay-key, as the real relay does. */
  authKey?: string
  /** Custody address the relay reports for a fid (the real one asks a hub); optional. */
  custodyOf?: (fid: number) => Address | undefined
}

const DOMAIN_PATTERN = /^[a-zA-Z0-9.-]+(:[0-9]+)?$/

function bearer(header: string | string[] | undefined): string | undefined {
  const value = Array.isArray(header) ? header[0] : header
  return value?.split(' ')[1] || undefined
}

function jsonBody(body: Buffer): Record<string, unknown> | undefined {
  try {
    const parsed = JSON.parse(body.toString('utf8')) as unknown
    return parsed && typeof parsed === 'object' ? (parsed as Record<string, unknown>) : undefined
  } catch {
    return undefined
  }
}

const optionalString = (value: unknown) => value === undefined || typeof value === 'string'

/**
 * Starts a Farcaster Connect relay look-alike on a free port of 127.0.0.1.
 *
 * @example
 * const relay = await startFakeFarcasterRelay()
 * afterAll(() => relay.close())
 * const t = await getTestInstance({ farcaster: { relayUrl: relay.url, … } })
 */
export async function startFakeFarcasterRelay(
  options: FakeFarcasterRelayOptions = {},
): Promise<FakeFarcasterRelay> {
  const connectUriBase = options.connectUriBase ?? 'https://farcaster.xyz/~/siwf'
  const channels = new Map<string, FakeRelayChannel>()
  const createdChannels: FakeRelayChannel['signatureParams'][] = []
  let available = true

  const listening = await listen(async (req, res) => {
    if (handleCors(req, res, '*', 'authorization, content-type, x-farcaster-auth-relay-key')) return
    if (!available) return sendJson(res, 503, { error: 'Service Unavailable' })
    const path = req.url.pathname

    if (req.method === 'POST' && path === '/v1/channel') {
      const body = jsonBody(req.body)
      if (
        !body ||
        typeof body.siweUri !== 'string' ||
        !URL.canParse(body.siweUri) ||
        typeof body.domain !== 'string' ||
        !DOMAIN_PATTERN.test(body.domain) ||
        !optionalString(body.nonce) ||
        !optionalString(body.notBefore) ||
        !optionalString(body.expirationTime) ||
        (body.acceptAuthAddress !== undefined && typeof body.acceptAuthAddress !== 'boolean')
      )
        return sendJson(res, 400, { error: 'Validation error' })
      const channelToken = randomUUID()
      const nonce = (body.nonce as string | undefined) ?? randomBytes(8).toString('hex')
      const url = `${connectUriBase}?${new URLSearchParams({ channelToken })}`
      const signatureParams = {
        ...(body as unknown as FakeRelayChannel['signatureParams']),
        nonce,
      }
      createdChannels.push(signatureParams)
      channels.set(channelToken, {
        state: 'pending',
        nonce,
        url,
        connectUri: url,
        acceptAuthAddress: (body.acceptAuthAddress as boolean | undefined) ?? true,
        signatureParams,
        metadata: { userAgent: String(req.headers['user-agent'] ?? 'Unknown'), ip: '127.0.0.1' },
      })
      return sendJson(res, 201, { channelToken, url, connectUri: url, nonce })
    }

    const channelToken = bearer(req.headers.authorization)
    if (path === '/v1/channel/status' && req.method === 'GET') {
      const channel = channelToken ? channels.get(channelToken) : undefined
      if (!channelToken || !channel) return sendJson(res, 401, { error: 'Unauthorized' })
      const { url: _url, connectUri: _connectUri, ...rest } = channel
      if (channel.state === 'completed') {
        // relay-core closes a channel once it reported it completed.
        channels.delete(channelToken)
        return sendJson(res, 200, rest)
      }
      return sendJson(res, 202, rest)
    }

    if (path === '/v1/channel/authenticate' && req.method === 'POST') {
      if (!channelToken) return sendJson(res, 401, { error: 'Unauthorized' })
      const key = req.headers['x-farcaster-auth-relay-key']
      if (options.authKey !== undefined && key !== options.authKey)
        return sendJson(res, 401, { error: 'Unauthorized' })
      const body = jsonBody(req.body)
      if (
        !body ||
        typeof body.message !== 'string' ||
        typeof body.signature !== 'string' ||
        typeof body.fid !== 'number' ||
        !Number.isInteger(body.fid)
      )
        return sendJson(res, 400, { error: 'Validation error' })
      const channel = channels.get(channelToken)
      if (!channel) return sendJson(res, 401, { error: 'Unauthorized' })
      const custody = options.custodyOf?.(body.fid)
      const updated: FakeRelayChannel = {
        ...channel,
        state: 'completed',
        message: body.message,
        signature: body.signature,
        authMethod: body.authMethod === 'authAddress' ? 'authAddress' : 'custody',
        fid: body.fid,
        ...(typeof body.username === 'string' ? { username: body.username } : {}),
        ...(typeof body.displayName === 'string' ? { displayName: body.displayName } : {}),
        ...(typeof body.bio === 'string' ? { bio: body.bio } : {}),
        ...(typeof body.pfpUrl === 'string' ? { pfpUrl: body.pfpUrl } : {}),
        ...(custody ? { custody } : {}),
        verifications: [],
      }
      channels.set(channelToken, updated)
      return sendJson(res, 201, updated)
    }

    sendJson(res, 404, { error: 'Not Found' })
  })

  return {
    url: listening.url,
    channel: (channelToken) => channels.get(channelToken),
    setAvailable(value) {
      available = value
    },
    createdChannels,
    close: () => listening.close(),
  }
}
