import { z } from 'zod'

/*
 * Client of the Farcaster Connect relay (farcasterxyz/auth-monorepo,
 * packages/relay-core/src/app.ts): the server opens a channel and polls it on
 * the browser's behalf; the Farcaster app (Warpcast) posts the signed message
 * to the same channel.
 *
 *   POST /v1/channel                  {siweUri, domain, nonce?, notBefore?, expirationTime?, acceptAuthAddress?}
 *                                     → 201 {channelToken, url, connectUri, nonce}
 *   GET  /v1/channel/status           Authorization: Bearer <channelToken>
 *                                     → 202 pending | 200 completed (the relay then deletes the channel) | 401 unknown
 *   POST /v1/channel/authenticate     (the Farcaster app) {message, signature, fid, username, bio, displayName, pfpUrl}
 */

/** Relay calls give up after this long. */
export const RELAY_TIMEOUT_MS = 10_000

/** The relay could not be reached or answered something unexpected. */
export class FarcasterRelayError extends Error {
  override readonly name = 'FarcasterRelayError'
  readonly status: number | undefined
  constructor(message: string, options: { status?: number; cause?: unknown } = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause })
    this.status = options.status
  }
}

export interface CreateChannelParameters {
  /** The SIWE `URI` the message must carry (our app's origin). */
  siweUri: string
  /** The SIWE `domain` (the origin's host). */
  domain: string
  nonce: string
  /** ISO 8601; the message's `Not Before`. */
  notBefore?: string
  /** ISO 8601; the message's `Expiration Time`. */
  expirationTime?: string
  /**
   * Whether the Farcaster app may sign with an auth address instead of the
   * custody address. Latchkey sends false: security bar 21 wants the custody
   * signer (the relay's default is true).
   */
  acceptAuthAddress?: boolean
}

const createChannelResponseSchema = z.object({
  channelToken: z.string().min(1).max(512),
  url: z.string().min(1).max(4096),
  connectUri: z.string().min(1).max(4096).optional(),
  nonce: z.string().min(1),
})
export type RelayChannel = z.infer<typeof createChannelResponseSchema>

const optionalText = z.string().max(4096).nullish()

const completedSchema = z.object({
  state: z.literal('completed'),
  nonce: z.string().optional(),
  message: z.string().min(1),
  signature: z.string().min(1),
  fid: z.number().int().positive(),
  username: optionalText,
  displayName: optionalText,
  bio: optionalText,
  pfpUrl: optionalText,
  custody: z.string().nullish(),
  verifications: z.array(z.string()).nullish(),
})
export type RelayCompletedStatus = z.infer<typeof completedSchema>

/** The channel as the relay reports it; `gone` is its 401 (unknown, expired or already read). */
export type RelayStatus = { state: 'pending' } | RelayCompletedStatus | { state: 'gone' }

export interface FarcasterRelayClient {
  createChannel(parameters: CreateChannelParameters): Promise<RelayChannel>
  channelStatus(channelToken: string): Promise<RelayStatus>
}

/**
 * A relay client for `relayUrl` (e.g. https://relay.farcaster.xyz). Every
 * call has a timeout; anything but the documented answers throws
 * FarcasterRelayError.
 *
 * @example
 * const relay = createRelayClient(services.config.farcaster.relayUrl)
 * const { channelToken, url } = await relay.createChannel({ siweUri, domain, nonce })
 */
export function createRelayClient(
  relayUrl: string,
  options: { fetch?: typeof fetch; timeoutMs?: number } = {},
): FarcasterRelayClient {
  const base = relayUrl.replace(/\/+$/, '')
  const timeoutMs = options.timeoutMs ?? RELAY_TIMEOUT_MS
  const doFetch = options.fetch ?? globalThis.fetch

  async function call(path: string, init: RequestInit): Promise<{ status: number; body: unknown }> {
    let response: Response
    try {
      response = await doFetch(`${base}${path}`, {
        ...init,
        redirect: 'error',
        signal: AbortSignal.timeout(timeoutMs),
      })
    } catch (cause) {
      throw new FarcasterRelayError(`Farcaster relay unreachable (${path})`, { cause })
    }
    const text = await response.text().catch(() => '')
    let body: unknown
    try {
      body = text ? JSON.parse(text) : undefined
    } catch {
      body = undefined
    }
    return { status: response.status, body }
  }

  return {
    async createChannel(parameters) {
      const { status, body } = await call('/v1/channel', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(parameters),
      })
      if (status !== 200 && status !== 201)
        throw new FarcasterRelayError(`Farcaster relay refused the channel (${status})`, { status })
      const parsed = createChannelResponseSchema.safeParse(body)
      if (!parsed.success)
        throw new FarcasterRelayError('Farcaster relay answered an unexpected channel', { status })
      return parsed.data
    },
    async channelStatus(channelToken) {
      const { status, body } = await call('/v1/channel/status', {
        method: 'GET',
        headers: { authorization: `Bearer ${channelToken}` },
      })
      if (status === 202) return { state: 'pending' }
      if (status === 401 || status === 404) return { state: 'gone' }
      if (status !== 200)
        throw new FarcasterRelayError(`Farcaster relay status failed (${status})`, { status })
      const parsed = completedSchema.safeParse(body)
      if (parsed.success) return parsed.data
      // Some relay versions answer 200 while pending.
      if ((body as { state?: unknown } | undefined)?.state === 'pending')
        return { state: 'pending' }
      throw new FarcasterRelayError('Farcaster relay answered an unexpected status', { status })
    },
  }
}
