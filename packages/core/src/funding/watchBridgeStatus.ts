import { LatchkeyError } from '../errors.ts'
import { sleep } from '../sleep.ts'
import type { BridgeClient, BridgeRequestStatus } from './createBridgeClient.ts'

/** Spec 03 §9 "Bridge status poll": every 1 s. */
export const BRIDGE_POLL_INTERVAL_MS = 1_000
/** How long a bridge may stay unsettled before BRIDGE_TIMED_OUT (our choice: spec 03 names no figure). */
export const BRIDGE_STATUS_TIMEOUT_MS = 15 * 60_000

const FAILED: ReadonlySet<BridgeRequestStatus> = new Set(['refund', 'refunded', 'failure'])

export interface WatchBridgeStatusParameters {
  client: BridgeClient
  /** The deposit transaction's hash (origin chain). */
  hash: string
  /** Every reading: waiting, pending, delayed… then success. */
  onStatus?: (status: BridgeRequestStatus) => void
  /** Default BRIDGE_STATUS_TIMEOUT_MS. */
  timeoutMs?: number
  signal?: AbortSignal
}

/**
 * Follows a bridge deposit until the funds land (spec 03 §4 "Bridge
 * status"): reads Relay's status every 1 s while it is waiting, pending,
 * delayed (or depositing, submitted); resolves 'success' on success. On
 * refund or failure throws BRIDGE_FAILED ('…Funds will be refunded on your
 * wallet.') with `details.refundUrl`, Relay's page for the request. A read
 * that fails is retried at the next poll; past `timeoutMs` it throws
 * BRIDGE_TIMED_OUT with the same link. Resolves undefined when `signal`
 * aborts.
 *
 * @example
 * try {
 *   await watchBridgeStatus({ client: bridge, hash, onStatus: setStatus })
 * } catch (error) {
 *   if (error.code === 'BRIDGE_FAILED') showRefundLink(error.details.refundUrl)
 * }
 */
export async function watchBridgeStatus(
  parameters: WatchBridgeStatusParameters,
): Promise<'success' | undefined> {
  const { client, hash, onStatus, signal } = parameters
  const timeoutMs = parameters.timeoutMs ?? BRIDGE_STATUS_TIMEOUT_MS
  let requestId: string | undefined
  let warned = false
  for (let waited = 0; waited <= timeoutMs; waited += BRIDGE_POLL_INTERVAL_MS) {
    if (signal?.aborted) return undefined
    try {
      const reading = await client.status(hash)
      requestId = reading.requestId ?? requestId
      if (signal?.aborted) return undefined
      onStatus?.(reading.status)
      if (reading.status === 'success') return 'success'
      if (FAILED.has(reading.status))
        throw new LatchkeyError('BRIDGE_FAILED', undefined, {
          details: {
            status: reading.status,
            requestId,
            refundUrl: client.requestUrl(requestId ?? hash),
          },
        })
    } catch (error) {
      if (error instanceof LatchkeyError) throw error
      if (!warned) console.warn('Latchkey: reading the bridge status failed; retrying', error)
      warned = true
    }
    if (!(await sleep(BRIDGE_POLL_INTERVAL_MS, signal))) return undefined
  }
  throw new LatchkeyError('BRIDGE_TIMED_OUT', undefined, {
    details: { requestId, refundUrl: client.requestUrl(requestId ?? hash) },
  })
}
