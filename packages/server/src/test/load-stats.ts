/**
 * @module
 * Measuring a load run (load.two-nodes.test.ts, `npm run bench:load`): a
 * bounded-concurrency runner, latency percentiles from sorted durations, and
 * one summary line per phase.
 */
import { loadavg } from 'node:os'

/**
 * Runs `task(0) … task(count - 1)`, at most `concurrency` at once: every task
 * is started, each as soon as a slot frees. A task that throws is counted
 * (its message kept, the first few), never stops the others. Once `signal`
 * aborts (a test timed out), no task starts: the run ends with those in flight.
 *
 * @example
 * const { failures } = await runLimited(1_000, 64, (i) => loginFlow(i))
 */
export async function runLimited(
  count: number,
  concurrency: number,
  task: (index: number) => Promise<void>,
  signal?: AbortSignal,
): Promise<{ failures: number; messages: string[] }> {
  let next = 0
  let failures = 0
  const messages: string[] = []
  const worker = async () => {
    while (next < count && !signal?.aborted) {
      const index = next++
      try {
        await task(index)
      } catch (error) {
        failures++
        if (messages.length < 5) messages.push(`#${index}: ${(error as Error).message}`)
      }
    }
  }
  await Promise.all(Array.from({ length: Math.min(concurrency, count) }, worker))
  return { failures, messages }
}

/** The nearest-rank percentile `p` (0–100) of ascending `sorted`, in its unit. */
export function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return Number.NaN
  const rank = Math.ceil((p / 100) * sorted.length)
  return sorted[Math.min(sorted.length, Math.max(1, rank)) - 1] as number
}

export interface Latency {
  p50: number
  p99: number
  max: number
}

/** p50, p99 and max of `durations` (ms). */
export function latency(durations: readonly number[]): Latency {
  const sorted = [...durations].sort((a, b) => a - b)
  return {
    p50: percentile(sorted, 50),
    p99: percentile(sorted, 99),
    max: sorted.at(-1) ?? Number.NaN,
  }
}

/** Busy PostgreSQL connections of the deployment, sampled while a phase ran. */
export interface ConnectionUse {
  /** Connections the nodes held (both pools). */
  open: number
  peakBusy: number
  meanBusy: number
}

export interface PhaseReport {
  name: string
  /** Units done (flows or refreshes) and the HTTP requests they took. */
  count: number
  requests: number
  failures: number
  messages: string[]
  elapsedMs: number
  concurrency: number
  /** Latency of one unit (a whole flow, one refresh). */
  unit: Latency
  /** Latency of one HTTP request. */
  request: Latency
  connections?: ConnectionUse
  /** 1-minute load average at the end of the phase (others may share the machine). */
  loadAverage: number
}

/** Times one phase's units and requests; `report()` closes it. */
export class PhaseTimer {
  private readonly started = performance.now()
  private readonly units: number[] = []
  private readonly requests: number[] = []

  constructor(
    private readonly name: string,
    private readonly concurrency: number,
  ) {}

  /** Runs `request` and records its duration. */
  async request<T>(request: () => Promise<T>): Promise<T> {
    const start = performance.now()
    try {
      return await request()
    } finally {
      this.requests.push(performance.now() - start)
    }
  }

  /** Runs one unit (it may make several requests) and records its duration. */
  async unit(unit: () => Promise<void>): Promise<void> {
    const start = performance.now()
    await unit()
    this.units.push(performance.now() - start)
  }

  report(
    outcome: { failures: number; messages: string[] },
    connections?: ConnectionUse,
  ): PhaseReport {
    return {
      name: this.name,
      count: this.units.length,
      requests: this.requests.length,
      ...outcome,
      elapsedMs: performance.now() - this.started,
      concurrency: this.concurrency,
      unit: latency(this.units),
      request: latency(this.requests),
      ...(connections ? { connections } : {}),
      loadAverage: loadavg()[0] ?? Number.NaN,
    }
  }
}

const ms = (value: number) => `${value < 10 ? value.toFixed(1) : Math.round(value)} ms`
const rate = (count: number, elapsedMs: number) => Math.round(count / (elapsedMs / 1_000))

/** One line: counts, rates, p50/p99 of units and requests, PG connections, load average. */
export function formatPhase(report: PhaseReport): string {
  const { unit, request, connections: pg } = report
  return [
    `load ${report.name}: ${report.count} in ${(report.elapsedMs / 1_000).toFixed(1)} s`,
    `${rate(report.count, report.elapsedMs)}/s (${rate(report.requests, report.elapsedMs)} req/s)`,
    `${report.concurrency} in flight`,
    `p50 ${ms(unit.p50)} p99 ${ms(unit.p99)} max ${ms(unit.max)}`,
    `request p50 ${ms(request.p50)} p99 ${ms(request.p99)}`,
    `failures ${report.failures}`,
    ...(pg ? [`PG busy peak ${pg.peakBusy}/${pg.open} mean ${pg.meanBusy.toFixed(1)}`] : []),
    `load avg ${report.loadAverage.toFixed(2)}`,
  ].join(' · ')
}
