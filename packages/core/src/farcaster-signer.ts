import {
  FARCASTER_SIGNER_POLL_INTERVAL_MS,
  FARCASTER_SIGNER_TIMEOUT_MS,
} from '@latchkey/protocol/constants'
import { routes } from '@latchkey/protocol/routes'
import type { FarcasterSignerResponse } from '@latchkey/protocol/schemas'
import type { LatchkeyClient } from './client.ts'
import { LatchkeyError } from './errors.ts'
import { pollStatus } from './poll-status.ts'
import { base64url } from './redirect.ts'
import { enclaveCall } from './wallets/enclave.ts'

/*
 * Farcaster signer (spec 03 §2, §4, §7; docs/farcaster-signer.md). The enclave
 * makes and keeps the ed25519 key and asks the server to start Farcaster's
 * signed key request; the page shows the approval link, polls the server
 * every 2 s for 5 minutes, and once approved asks the enclave to sign
 * message hashes. The key never reaches this page.
 */

/** A signer request's state. */
export interface FarcasterSigner {
  /** 0x-hex of the 32-byte ed25519 public key. */
  publicKey: `0x${string}`
  status: FarcasterSignerResponse['status']
  /** The deep link the Farcaster app approves with (QR code / "Open Farcaster app"); null once approved. */
  signerApprovalUrl: string | null
  /** The fid that approved, once approved. */
  fid: number | null
}

const toSigner = (r: FarcasterSignerResponse): FarcasterSigner => ({
  publicKey: r.public_key as `0x${string}`,
  status: r.status,
  signerApprovalUrl: r.signer_approval_url,
  fid: r.fid,
})

/**
 * Makes (once per user and browser) the enclave's signer key and starts its
 * signed key request. Rejects with FARCASTER_SIGNER_CONNECT_FAILED ('Connect
 * failed') when the user has no Farcaster account, FARCASTER_SIGNER_NOT_CONFIGURED
 * when the app has no requesting FID.
 *
 * @example
 * const { publicKey, signerApprovalUrl } = await initFarcasterSigner(client)
 */
export async function initFarcasterSigner(client: LatchkeyClient): Promise<FarcasterSigner> {
  const answer = await enclaveCall<FarcasterSignerResponse>(
    client,
    'latchkey:farcaster-signer:init',
    {},
  )
  if (!answer?.public_key) throw new LatchkeyError('FARCASTER_SIGNER_CONNECT_FAILED')
  return toSigner(answer)
}

/** One status read of the user's signer request for `publicKey`. */
export async function getFarcasterSignerStatus(
  client: LatchkeyClient,
  publicKey: string,
): Promise<FarcasterSigner> {
  const answer = await client.http.request<FarcasterSignerResponse>(routes.farcasterSignerStatus, {
    body: { ed25519_public_key: publicKey },
    // The poll itself retries every interval.
    retry: false,
  })
  return toSigner(answer)
}

export interface WaitForFarcasterSignerOptions {
  /** Stops polling; the promise rejects with the signal's reason. */
  signal?: AbortSignal
  /** Default 2 s (spec 03 §9). */
  intervalMs?: number
  /** Default 5 min (spec 03 §9). */
  timeoutMs?: number
}

/**
 * Polls the signer every 2 s until the user approved it (spec 03 §4).
 * Rejects with FARCASTER_SIGNER_REJECTED ('Request rejected') when revoked,
 * FARCASTER_TIMEOUT ('The request timed out. Try again.') after 5 minutes,
 * the server's error when it refuses, or the signal's reason when aborted.
 * Network failures and 5xx answers are polled through.
 *
 * @example
 * const approved = await waitForFarcasterSigner(client, publicKey, { signal })
 */
export function waitForFarcasterSigner(
  client: LatchkeyClient,
  publicKey: string,
  {
    signal,
    intervalMs = FARCASTER_SIGNER_POLL_INTERVAL_MS,
    timeoutMs = FARCASTER_SIGNER_TIMEOUT_MS,
  }: WaitForFarcasterSignerOptions = {},
): Promise<FarcasterSigner> {
  return pollStatus(
    async () => {
      const signer = await getFarcasterSignerStatus(client, publicKey)
      if (signer.status === 'revoked') throw new LatchkeyError('FARCASTER_SIGNER_REJECTED')
      return signer.status === 'approved' ? signer : undefined
    },
    { signal, intervalMs, timeoutMs, timeoutError: () => new LatchkeyError('FARCASTER_TIMEOUT') },
  )
}

const fromBase64url = (text: string) =>
  Uint8Array.from(atob(text.replace(/-/g, '+').replace(/_/g, '/')), (c) => c.charCodeAt(0))

/**
 * Signs a Farcaster message hash (the 20-byte BLAKE3 hash of a message's
 * data) with the user's approved signer key, in the enclave; resolves with the
 * 64-byte ed25519 signature. Rejects with FARCASTER_SIGNER_CONNECT_FAILED when
 * this browser holds no approved signer for the user.
 *
 * @example
 * const signature = await signFarcasterMessage(client, messageHash)
 */
export async function signFarcasterMessage(
  client: LatchkeyClient,
  messageHash: Uint8Array,
): Promise<Uint8Array> {
  const { signature } = await enclaveCall<{ signature: string }>(
    client,
    'latchkey:farcaster-signer:sign',
    { message_hash: base64url(messageHash) },
  )
  return fromBase64url(signature)
}
