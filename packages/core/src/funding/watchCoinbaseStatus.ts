import type { LatchkeyClient } from '../client.ts'
import { sleep } from '../sleep.ts'
import { coinbaseStatus } from './coinbaseStatus.ts'

/** Spec 03 §9 "Coinbase-style poll": every 1.5 s. */
export const COINBASE_POLL_INTERVAL_MS = 1_500
/** Spec 03 §9: at the third poll that finds the popup closed, the user goes back to the chooser. */
export const COINBASE_MAX_POPUP_CLOSES = 3
/** Status reads that may fail in a row before the watch ends in `error`. */
export const COINBASE_MAX_POLL_FAILURES = 3

/**
 * Spec 03 §4 "Coinbase-style onramp status", plus `closed`:
 * - `pending-in-flow`: the popup is open, the purchase not finished;
 * - `pending-after-flow`: the popup was closed and no result has been read
 *   yet (the user finished or left Coinbase; its result may still land).
 *   Also reported once, without a read, when the popup closes during the
 *   start delay;
 * - `success` / `error`: Coinbase's outcome (final);
 * - `closed`: the popup stayed closed for 3 polls with nothing to show:
 *   go back to the funding method screen (final).
 */
export type CoinbaseOnrampStatus =
  | 'pending-in-flow'
  | 'pending-after-flow'
  | 'success'
  | 'error'
  | 'closed'

export interface WatchCoinbaseStatusParameters {
  client: LatchkeyClient
  /** From `createCoinbaseSession`. */
  partnerUserId: string
  /** The Coinbase popup (a `Window`, or anything with `closed`). */
  popup: { readonly closed: boolean }
  onStatus: (status: CoinbaseOnrampStatus) => void
  /**
   * Wait before the first poll, on top of the 1.5 s interval (default 0;
   * spec 03 §4 starts tracking after CARD_STATUS_START_DELAY_MS.coinbase).
   */
  startDelayMs?: number
  /** Stops the watch: it then resolves undefined. */
  signal?: AbortSignal
}

/**
 * Follows a Coinbase Onramp purchase (spec 03 §4): every 1.5 s asks our
 * server for the outcome under `partnerUserId`. `success` and `failure`
 * end the watch (`success` / `error`). While pending, each poll that finds
 * the popup closed counts one close; at 3 the watch ends with `closed` (a
 * grace of about 3 s after the user closes Coinbase for a result that was
 * on its way). Three failed status reads in a row end it with `error`.
 * Resolves with the final status.
 *
 * @example
 * const popup = window.open(url, 'coinbase', 'width=440,height=680')
 * const last = await watchCoinbaseStatus({ client, partnerUserId, popup, onStatus: setStatus })
 * if (last === 'closed' || last === 'error') backToChooser()
 */
export async function watchCoinbaseStatus(
  parameters: WatchCoinbaseStatusParameters,
): Promise<CoinbaseOnrampStatus | undefined> {
  const { client, partnerUserId, popup, onStatus, signal } = parameters
  let closes = 0
  let failures = 0
  // During the start delay nothing is read, but a closed popup is noticed
  // (every 1.5 s): the screen must not keep saying "Go back to Coinbase".
  let closedSeen = false
  for (let left = parameters.startDelayMs ?? 0; left > 0; left -= COINBASE_POLL_INTERVAL_MS) {
    if (!(await sleep(Math.min(left, COINBASE_POLL_INTERVAL_MS), signal))) return undefined
    if (popup.closed && !closedSeen) {
      closedSeen = true
      onStatus('pending-after-flow')
    }
  }
  while (await sleep(COINBASE_POLL_INTERVAL_MS, signal)) {
    let outcome: Awaited<ReturnType<typeof coinbaseStatus>>
    try {
      outcome = await coinbaseStatus(client, partnerUserId)
      failures = 0
    } catch (error) {
      if (signal?.aborted) return undefined
      failures += 1
      if (failures < COINBASE_MAX_POLL_FAILURES) continue
      console.warn('Latchkey: Coinbase Onramp status failed', error)
      outcome = 'failure'
    }
    if (signal?.aborted) return undefined
    let status: CoinbaseOnrampStatus
    if (outcome === 'success') status = 'success'
    else if (outcome === 'failure') status = 'error'
    else if (!popup.closed) status = 'pending-in-flow'
    else {
      closes += 1
      status = closes >= COINBASE_MAX_POPUP_CLOSES ? 'closed' : 'pending-after-flow'
    }
    onStatus(status)
    if (status !== 'pending-in-flow' && status !== 'pending-after-flow') return status
  }
  return undefined
}
