import { randomBytes } from 'node:crypto'
import type {
  AuthResponse,
  FarcasterInitResponse,
  FarcasterStatusResponse,
  UserWire,
} from '@latchkey/protocol'
import { FARCASTER_TIMEOUT_MS } from '@latchkey/protocol'
import type { Hex } from 'viem'
import { type AppRecord, toAppConfig } from '../../apps/service.ts'
import { isUniqueViolation } from '../../db/connect.ts'
import { ApiError, limited } from '../../errors.ts'
import type { Services } from '../../http/context.ts'
import { ipBucket } from '../../rate-limit/limit-per-ip.ts'
import { startSession } from '../../sessions/service.ts'
import {
  type AccountInput,
  createUserWithAccount,
  findAccount,
  getUserWire,
  insertAccount,
  linkedAccountsOf,
  unlinkAccount,
} from '../../users/service.ts'
import { accountTransferOrRefusal } from '../../users/transfer.ts'
import {
  consumeChannel,
  type FarcasterChannel,
  findUsableChannel,
  recalledCompletion,
  recordChannel,
  rememberCompletion,
} from './channels.ts'
import {
  createRelayClient,
  FarcasterRelayError,
  type RelayChannel,
  type RelayCompletedStatus,
  type RelayStatus,
} from './relay.ts'
import {
  FARCASTER_ACCOUNT_TYPE,
  FARCASTER_CHANNEL_SLACK_MS,
  FARCASTER_INITS_PER_IP,
} from './schema.ts'
import {
  FarcasterRegistryError,
  FarcasterVerificationError,
  verifySignInWithFarcaster,
} from './verify.ts'

/*
 * Sign In With Farcaster, server side (docs/login-farcaster.md, spec 01 §4
 * "Farcaster", §7): this server is the relay's client. It opens the channel,
 * proxies its status to the browser, and verifies the signed message the
 * Farcaster app left there (security bar 21). Users are keyed by fid.
 */

/** The proof the browser posts to authenticate or link. */
export interface FarcasterProof {
  channel_token: string
  message: string
  signature: string
  fid: number
}

/** LOGIN_METHOD_NOT_ALLOWED unless the app switched Farcaster on. */
function assertEnabled(app: AppRecord): void {
  if (!toAppConfig(app).login_methods.farcaster) throw new ApiError('LOGIN_METHOD_NOT_ALLOWED')
}

const relayOf = (services: Services) => createRelayClient(services.config.farcaster.relayUrl)

/** FARCASTER_RELAY_ERROR for a relay or registry failure; other errors pass through. */
function upstreamError(services: Services, app: AppRecord, error: unknown): unknown {
  if (error instanceof FarcasterRelayError) {
    services.logger.warn(`farcaster relay failed for app ${app.id}: ${error.message}`)
    return new ApiError('FARCASTER_RELAY_ERROR', undefined, { reason: 'relay_unavailable' })
  }
  if (error instanceof FarcasterRegistryError) {
    services.logger.warn(`farcaster id registry failed for app ${app.id}: ${error.message}`)
    return new ApiError('FARCASTER_RELAY_ERROR', undefined, { reason: 'registry_unavailable' })
  }
  return error
}

/**
 * The origin the sign-in message will name: the request's Origin, which must
 * be one of the app's exact origins (a Farcaster app shows the domain to the
 * user, so it must be the page the user is on).
 */
function signInOrigin(app: AppRecord, origin: string | undefined): URL {
  if (!origin || !app.allowedOrigins.includes(origin)) throw new ApiError('ORIGIN_NOT_ALLOWED')
  return new URL(origin)
}

/**
 * Opens a relay channel for the page at `origin`: a fresh 128-bit nonce, the
 * origin's host as the SIWE domain and the origin as its URI.
 */
export async function initFarcaster(
  services: Services,
  app: AppRecord,
  caller: { origin: string | undefined; ip: string | undefined },
): Promise<FarcasterInitResponse> {
  assertEnabled(app)
  const origin = signInOrigin(app, caller.origin)
  const limit = await services.limiter.hit(
    `farcaster-init:${app.id}:${ipBucket(caller.ip)}`,
    FARCASTER_INITS_PER_IP.limit,
    FARCASTER_INITS_PER_IP.windowMs,
  )
  if (!limit.allowed) throw limited('TOO_MANY_REQUESTS', limit.resetAt, services.now())
  const now = services.now()
  const expiresAt = now + FARCASTER_TIMEOUT_MS + FARCASTER_CHANNEL_SLACK_MS
  const nonce = randomBytes(16).toString('hex')
  const domain = origin.host
  const siweUri = origin.origin
  let channel: RelayChannel
  try {
    channel = await relayOf(services).createChannel({
      siweUri,
      domain,
      nonce,
      expirationTime: new Date(expiresAt).toISOString(),
      acceptAuthAddress: false,
    })
  } catch (error) {
    throw upstreamError(services, app, error)
  }
  // The Farcaster app signs the relay's nonce; it must be ours.
  if (channel.nonce !== nonce)
    throw upstreamError(services, app, new FarcasterRelayError('relay replaced the nonce'))
  await recordChannel(services, {
    channelToken: channel.channelToken,
    app_id: app.id,
    nonce,
    domain,
    siwe_uri: siweUri,
    created_at: now,
    expires_at: expiresAt,
  })
  return {
    channel_token: channel.channelToken,
    connect_uri: channel.connectUri ?? channel.url,
    expires_at: expiresAt,
  }
}

/** Only http(s) picture URLs are kept. */
const httpUrl = (value: string | null | undefined): string | null => {
  if (!value) return null
  try {
    const url = new URL(value)
    return url.protocol === 'https:' || url.protocol === 'http:' ? url.href : null
  } catch {
    return null
  }
}

function toStatusWire(status: RelayCompletedStatus): FarcasterStatusResponse {
  return {
    state: 'completed',
    message: status.message,
    signature: status.signature,
    fid: status.fid,
    username: status.username || null,
    display_name: status.displayName || null,
    bio: status.bio || null,
    pfp_url: httpUrl(status.pfpUrl),
  }
}

/**
 * The channel's state, read from the relay for the browser (which only talks
 * to this server). Unknown or another app's token: AUTHENTICATION_FAILED;
 * past its expiry: FARCASTER_TIMEOUT.
 */
export async function farcasterStatus(
  services: Services,
  app: AppRecord,
  channelToken: string | undefined,
): Promise<FarcasterStatusResponse> {
  assertEnabled(app)
  if (!channelToken || channelToken.length > 512)
    throw new ApiError('INVALID_PAYLOAD', 'The channel token header is required')
  const channel = await findUsableChannel(services, app.id, channelToken)
  const remembered = recalledCompletion(channel)
  if (remembered) return toStatusWire(remembered)
  let status: RelayStatus
  try {
    status = await relayOf(services).channelStatus(channelToken)
  } catch (error) {
    throw upstreamError(services, app, error)
  }
  if (status.state === 'pending') return { state: 'pending' }
  if (status.state === 'gone')
    throw upstreamError(services, app, new FarcasterRelayError('relay lost the channel'))
  await rememberCompletion(services, channel, status)
  return toStatusWire(status)
}

/** Profile fields of the account, from the relay's completed status (never from the browser). */
interface FarcasterProfile {
  username: string | null
  display_name: string | null
  bio: string | null
  pfp_url: string | null
}

/**
 * The relay's profile for the channel: what our status proxy saw, else a
 * fresh read (the browser may not have polled through this node). Best
 * effort: undefined when neither has it, or it is of another fid.
 */
async function relayProfile(
  services: Services,
  channel: FarcasterChannel,
  channelToken: string,
  fid: number,
): Promise<FarcasterProfile | undefined> {
  let status = recalledCompletion(channel)
  if (!status) {
    try {
      const fresh = await relayOf(services).channelStatus(channelToken)
      if (fresh.state === 'completed') status = fresh
    } catch {
      // The proof already verified; the profile is decoration.
    }
  }
  if (!status || status.fid !== fid) return undefined
  const wire = toStatusWire(status)
  if (wire.state !== 'completed') return undefined
  return {
    username: wire.username,
    display_name: wire.display_name,
    bio: wire.bio,
    pfp_url: wire.pfp_url,
  }
}

interface VerifiedFarcaster {
  fid: number
  custody: string
  profile: FarcasterProfile | undefined
}

/**
 * Verifies the proof against this app's channel and spends the channel
 * (only after everything verified). AUTHENTICATION_FAILED with a `reason`
 * when the proof does not hold.
 */
async function verifiedProof(
  services: Services,
  app: AppRecord,
  proof: FarcasterProof,
): Promise<VerifiedFarcaster> {
  assertEnabled(app)
  const channel = await findUsableChannel(services, app.id, proof.channel_token)
  const { farcaster } = services.config
  let custody: string
  try {
    const verified = await verifySignInWithFarcaster({
      message: proof.message,
      signature: proof.signature as Hex,
      fid: proof.fid,
      expected: { domain: channel.domain, uri: channel.siwe_uri, nonce: channel.nonce },
      registry: {
        rpcUrl: farcaster.optimismRpcUrl,
        idRegistryAddress: farcaster.idRegistryAddress,
      },
      now: services.now(),
    })
    custody = verified.custody
  } catch (error) {
    if (error instanceof FarcasterVerificationError)
      throw new ApiError('AUTHENTICATION_FAILED', undefined, { reason: error.reason })
    throw upstreamError(services, app, error)
  }
  const profile = await relayProfile(services, channel, proof.channel_token, proof.fid)
  await consumeChannel(services, channel)
  return { fid: proof.fid, custody, profile }
}

/** The account row's data: the custody address, and the profile when the relay gave one. */
function toAccount(verified: VerifiedFarcaster, previous: Record<string, unknown> = {}) {
  const emptyProfile: FarcasterProfile = {
    username: null,
    display_name: null,
    bio: null,
    pfp_url: null,
  }
  return {
    type: FARCASTER_ACCOUNT_TYPE,
    identifier: String(verified.fid),
    data: {
      ...emptyProfile,
      ...previous,
      ...(verified.profile ?? {}),
      owner_address: verified.custody,
    },
  } satisfies AccountInput
}

/** Logs in (or signs up) with a verified Sign In With Farcaster proof (spec 01 §4 "Farcaster"). */
export async function authenticateWithFarcaster(
  services: Services,
  app: AppRecord,
  input: FarcasterProof & { mode: 'login-or-sign-up' | 'no-signup' },
): Promise<AuthResponse> {
  const verified = await verifiedProof(services, app, input)
  const identifier = String(verified.fid)
  const now = services.now()
  const existing = await findAccount(services.db, app.id, FARCASTER_ACCOUNT_TYPE, identifier)
  if (existing) {
    // Custody can move and profiles change: keep the latest verified ones.
    const account = toAccount(verified, JSON.parse(existing.data) as Record<string, unknown>)
    await services.db
      .updateTable('linked_accounts')
      .set({ data: JSON.stringify(account.data), latest_verified_at: now })
      .where('id', '=', existing.id)
      .execute()
    return startSession(services, app.id, existing.user_id, false)
  }
  if (input.mode === 'no-signup') throw new ApiError('USER_DOES_NOT_EXIST')
  try {
    const userId = await createUserWithAccount(services.db, app.id, toAccount(verified), now)
    return startSession(services, app.id, userId, true)
  } catch (error) {
    if (!isUniqueViolation(error)) throw error
    const winner = await findAccount(services.db, app.id, FARCASTER_ACCOUNT_TYPE, identifier)
    if (!winner) throw error
    return startSession(services, app.id, winner.user_id, false)
  }
}

/** Links a verified Farcaster account to the signed-in user (one per user). */
export async function linkFarcaster(
  services: Services,
  app: AppRecord,
  userId: string,
  proof: FarcasterProof,
): Promise<UserWire> {
  const verified = await verifiedProof(services, app, proof)
  const account = toAccount(verified)
  const owner = await findAccount(services.db, app.id, FARCASTER_ACCOUNT_TYPE, account.identifier)
  if (owner && owner.user_id !== userId)
    // Another user's only login method may move here (docs/access-control.md).
    throw await accountTransferOrRefusal(
      services,
      app,
      userId,
      owner,
      account,
      'ACCOUNT_ALREADY_LINKED',
    )
  const accounts = await linkedAccountsOf(services.db, userId)
  if (accounts.some((a) => a.type === FARCASTER_ACCOUNT_TYPE))
    throw new ApiError(
      'CANNOT_LINK_MORE_OF_TYPE',
      'Only one Farcaster account can be linked to an account.',
    )
  try {
    await insertAccount(services.db, app.id, userId, account, services.now())
  } catch (error) {
    if (isUniqueViolation(error)) throw new ApiError('ACCOUNT_ALREADY_LINKED')
    throw error
  }
  return getUserWire(services.db, userId)
}

/** Removes the Farcaster account `fid` from the signed-in user, who must keep one account. */
export async function unlinkFarcaster(
  services: Services,
  app: AppRecord,
  userId: string,
  fid: number,
): Promise<UserWire> {
  return unlinkAccount(services.db, app.id, userId, FARCASTER_ACCOUNT_TYPE, String(fid))
}
