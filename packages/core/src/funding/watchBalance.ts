import { sleep } from '../sleep.ts'

/** Spec 03 §9 "Manual balance poll": every 2 s. */
export const BALANCE_POLL_INTERVAL_MS = 2_000

/** One reading of the Receive funds wallet card (spec 03 §4 "Manual receive"). */
export interface BalanceReading {
  /** The balance now, in the asset's base units. */
  balance: bigint
  /** The first reading. */
  baseline: bigint
  /** The balance rose above the first reading at least once (the flag stays set). */
  funded: boolean
  /** Whether the balance is at least `requested`: the wallet card turns green. */
  atLeast(requested: bigint): boolean
}

export interface WatchBalanceParameters {
  /** Reads the balance (wei, lamports or token base units). */
  read: () => Promise<bigint>
  /** Default BALANCE_POLL_INTERVAL_MS. */
  intervalMs?: number
  /** The first reading, then every change. */
  onChange: (reading: BalanceReading) => void
  /** Stops the watch. */
  signal?: AbortSignal
}

/**
 * Polls a wallet's balance for Receive funds (spec 03 §4 "Manual
 * receive"): the first reading is the baseline; a later reading above it
 * sets `funded` (Continue shows, a success event is due). `onChange` hears
 * the first reading and each change. A failed read is skipped (the next
 * poll retries): a flaky RPC must not end the screen. Runs until `signal`
 * aborts.
 *
 * @example
 * const stop = new AbortController()
 * watchBalance({
 *   read: () => client.getBalance({ address }),
 *   onChange: ({ balance, funded, atLeast }) => render(balance, funded, atLeast(requested)),
 *   signal: stop.signal,
 * })
 */
export async function watchBalance(parameters: WatchBalanceParameters): Promise<void> {
  const { read, onChange, signal } = parameters
  const intervalMs = parameters.intervalMs ?? BALANCE_POLL_INTERVAL_MS
  let baseline: bigint | undefined
  let last: bigint | undefined
  let funded = false
  let warned = false
  do {
    if (signal?.aborted) return
    let balance: bigint
    try {
      balance = await read()
    } catch (error) {
      if (!warned) console.warn('Latchkey: reading the balance failed; retrying', error)
      warned = true
      continue
    }
    if (signal?.aborted) return
    if (baseline === undefined) baseline = balance
    if (balance > baseline) funded = true
    if (balance === last) continue
    last = balance
    onChange({ balance, baseline, funded, atLeast: (requested) => balance >= requested })
  } while (await sleep(intervalMs, signal))
}
