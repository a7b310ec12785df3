import {
  FARCASTER_CHANNEL_TOKEN_HEADER,
  FARCASTER_POLL_INTERVAL_MS,
  FARCASTER_TIMEOUT_MS,
} from '@latchkey/protocol/constants'
import { routes } from '@latchkey/protocol/routes'
import type {
  AuthMode,
  FarcasterInitResponse,
  FarcasterStatusResponse,
  UserWire,
} from '@latchkey/protocol/schemas'
import type { LatchkeyClient } from '../client.ts'
import { LatchkeyError } from '../errors.ts'
import { pollStatus } from '../poll-status.ts'
import { setRecentLoginMethod } from '../recent-login.ts'
import { toUser, type User } from '../user.ts'
import { loginRequest } from './login-request.ts'

/*
 * Sign In With Farcaster in the browser (spec 01 §2 "Farcaster sign-in", §4,
 * §7): the server opens a relay channel, the page shows its connect URI as a
 * QR code (or a deep link on mobile), polls the server every 2 s until the
 * Farcaster app signed, then sends the signed message to log in or link.
 * The browser only ever talks to the Latchkey server.
 */

export { FARCASTER_CHANNEL_TOKEN_HEADER }

export interface StartFarcasterLoginParameters {
  /** Captcha token, when the app enables captcha. */
  captchaToken?: string
}

export interface StartFarcasterLoginReturnType {
  /** The relay channel's token: poll with it, then send it with the signature. */
  channelToken: string
  /** What the QR code encodes / the deep link opens in the Farcaster app. */
  connectUri: string
  /** Epoch ms after which the server refuses the channel. */
  expiresAt: number
}

/**
 * Opens a Farcaster relay channel through the server (for a login or a link).
 *
 * @example
 * const { channelToken, connectUri } = await startFarcasterLogin(client)
 * renderQrCode(connectUri)
 * const signed = await waitForFarcaster(client, channelToken)
 * await loginWithFarcaster(client, signed)
 */
export async function startFarcasterLogin(
  client: LatchkeyClient,
  { captchaToken }: StartFarcasterLoginParameters = {},
): Promise<StartFarcasterLoginReturnType> {
  // docs/captcha.md: a fresh single-use token from the installed captcha, if any.
  const token = captchaToken ?? (await client.captchaToken())
  const response = await client.http.request<FarcasterInitResponse>(routes.farcasterInit, {
    body: token ? { token } : {},
    auth: false,
  })
  return {
    channelToken: response.channel_token,
    connectUri: response.connect_uri,
    expiresAt: response.expires_at,
  }
}

/** The Farcaster app's signature for a channel, ready for {@link loginWithFarcaster} / {@link linkFarcaster}. */
export interface FarcasterSignature {
  channelToken: string
  /** The Sign In With Farcaster message (EIP-4361) the custody address signed. */
  message: string
  signature: string
  fid: number
  /** Profile fields the relay reported (shown only; the server reads its own copy). */
  username: string | null
  displayName: string | null
  bio: string | null
  pfpUrl: string | null
}

/** One status poll; `pending` until the Farcaster app signed. */
export async function getFarcasterStatus(
  client: LatchkeyClient,
  channelToken: string,
): Promise<FarcasterStatusResponse> {
  return client.http.request<FarcasterStatusResponse>(routes.farcasterStatus, {
    method: 'GET',
    headers: { [FARCASTER_CHANNEL_TOKEN_HEADER]: channelToken },
    auth: false,
    // The poll itself retries every interval.
    retry: false,
  })
}

export interface WaitForFarcasterOptions {
  /** Stops polling; the promise rejects with the signal's reason. */
  signal?: AbortSignal
  /** Default FARCASTER_POLL_INTERVAL_MS (2 s, spec 01 §9). */
  intervalMs?: number
  /** Default FARCASTER_TIMEOUT_MS (120 s, spec 01 §9). */
  timeoutMs?: number
}

/**
 * Polls the channel every 2 s until the Farcaster app signed (spec 01 §4
 * "Farcaster"). Rejects with a LatchkeyError FARCASTER_TIMEOUT ('The request
 * timed out. Try again.', retryable) after 2 minutes, with the server's
 * error when it refuses the channel, or with the signal's reason when
 * aborted (the modal closed).
 *
 * @example
 * const controller = new AbortController()
 * const signed = await waitForFarcaster(client, channelToken, { signal: controller.signal })
 */
export function waitForFarcaster(
  client: LatchkeyClient,
  channelToken: string,
  {
    signal,
    intervalMs = FARCASTER_POLL_INTERVAL_MS,
    timeoutMs = FARCASTER_TIMEOUT_MS,
  }: WaitForFarcasterOptions = {},
): Promise<FarcasterSignature> {
  return pollStatus(
    async () => {
      const status = await getFarcasterStatus(client, channelToken)
      if (status.state !== 'completed') return undefined
      return {
        channelToken,
        message: status.message,
        signature: status.signature,
        fid: status.fid,
        username: status.username,
        displayName: status.display_name,
        bio: status.bio,
        pfpUrl: status.pfp_url,
      }
    },
    { signal, intervalMs, timeoutMs, timeoutError: () => new LatchkeyError('FARCASTER_TIMEOUT') },
  )
}

export type LoginWithFarcasterParameters = Pick<
  FarcasterSignature,
  'channelToken' | 'message' | 'signature' | 'fid'
> & {
  /** `no-signup` when sign-up is disabled (spec 01 §5). */
  mode?: AuthMode
  captchaToken?: string
}

export interface LoginWithFarcasterReturnType {
  user: User
  isNewUser: boolean
}

const toBody = (p: Pick<FarcasterSignature, 'channelToken' | 'message' | 'signature' | 'fid'>) => ({
  channel_token: p.channelToken,
  message: p.message,
  signature: p.signature,
  fid: p.fid,
})

/**
 * Logs in (or signs up) with the Farcaster app's signature and stores the
 * session. The server checks the message against the channel and that the
 * fid's custody address signed it.
 *
 * @example
 * const { user, isNewUser } = await loginWithFarcaster(client, await waitForFarcaster(client, channelToken))
 */
export async function loginWithFarcaster(
  client: LatchkeyClient,
  { mode = 'login-or-sign-up', captchaToken, ...signed }: LoginWithFarcasterParameters,
): Promise<LoginWithFarcasterReturnType> {
  const response = await loginRequest(client, routes.farcasterAuthenticate, {
    ...toBody(signed),
    mode,
    ...(captchaToken ? { token: captchaToken } : {}),
  })
  const user = client.session.applyAuthResponse(response)
  setRecentLoginMethod(client.storage, client.appId, 'farcaster')
  return { user, isNewUser: response.is_new_user }
}

/**
 * Links the Farcaster account that signed to the logged-in user (one per user).
 *
 * @example
 * const { channelToken, connectUri } = await startFarcasterLogin(client)
 * const user = await linkFarcaster(client, await waitForFarcaster(client, channelToken))
 */
export async function linkFarcaster(
  client: LatchkeyClient,
  signed: Pick<FarcasterSignature, 'channelToken' | 'message' | 'signature' | 'fid'>,
): Promise<User> {
  const user = toUser(await client.authedRequest<UserWire>(routes.farcasterLink, toBody(signed)))
  client.session.setUser(user)
  return user
}

/** Unlinks the Farcaster account `fid` from the logged-in user (who must keep one login method). */
export async function unlinkFarcaster(
  client: LatchkeyClient,
  { fid }: { fid: number },
): Promise<User> {
  const user = toUser(await client.authedRequest<UserWire>(routes.farcasterUnlink, { fid }))
  client.session.setUser(user)
  return user
}
