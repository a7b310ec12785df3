// What every server measurement shares: the server in its own process pinned
// to core 0, the load generator (this process) pinned to core 1, autocannon
// with a warm-up before each measured window, and the server's own CPU time
// per answered request (reported over IPC), which other load on the machine
// barely moves.
import { spawn, spawnSync } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { cpus, loadavg } from 'node:os'
import autocannon from 'autocannon'

export const SERVER_CORE = 0
export const GENERATOR_CORE = 1

const canPin = () => spawnSync('taskset', ['-V']).status === 0 && cpus().length >= 2

/**
 * Pins this process (the load generator) to its core; false where taskset or
 * a second core is missing. BENCH_GENERATOR_CORES=0,1 lets it float instead,
 * onto the server's core too (how the refresh figure was first measured).
 */
export function pinGenerator() {
  if (!canPin()) return false
  const cores = process.env.BENCH_GENERATOR_CORES ?? String(GENERATOR_CORE)
  return spawnSync('taskset', ['-cp', cores, String(process.pid)], { stdio: 'ignore' }).status === 0
}

/**
 * Why a row's requests/s is not the server's own figure, or null. Load is a
 * closed loop: when other processes take the generator's core, requests
 * arrive slower than the server could answer them and the server idles.
 */
export function contention(row) {
  if (row.serverCorePct === null || row.core0BusyPct === null) return null
  const reasons = []
  if (row.stealPct > 2) reasons.push(`steal ${row.stealPct}%`)
  const onServerCore = row.core0BusyPct - row.serverCorePct
  if (onServerCore > 10) reasons.push(`other processes had ${onServerCore}% of the server's core`)
  const onGeneratorCore = row.core1BusyPct - row.generatorCorePct
  if (row.serverCorePct < 90 && onGeneratorCore > 10)
    reasons.push(`${onGeneratorCore}% of the load generator's core`)
  return reasons.length ? reasons.join('; ') : null
}

/** The cores a process may run on, as the kernel sees them (so a silent pinning failure shows). */
export function affinity(pid) {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8')
  return /Cpus_allowed_list:\s*(\S+)/.exec(status)?.[1] ?? '?'
}

/**
 * Starts `node [args] script` pinned to the server core. The script reports
 * `{ type: 'ready', url }` over IPC and answers `cpu` and `stop` messages.
 * `taskset` execs node, so the child's pid is the server's.
 */
export function startPinnedServer({ script, nodeArgs = [], env = {}, cwd }) {
  const pinned = pinGenerator()
  const node = [process.execPath, ...nodeArgs, script]
  const [command, ...args] = pinned ? ['taskset', '-c', String(SERVER_CORE), ...node] : node
  const child = spawn(command, args, {
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    cwd,
    env: { ...process.env, ...env },
  })
  return new Promise((resolve, reject) => {
    child.once('error', reject)
    const onExit = (code) => reject(new Error(`${script} exited with ${code}`))
    child.once('exit', onExit)
    child.on('message', (m) => {
      if (m.type !== 'ready') return
      child.off('exit', onExit)
      resolve({ child, url: m.url, pinned })
    })
  })
}

/** Sends `{ type, ...payload }` to a server process and resolves with its answer of the same type. */
export function call(child, type, payload = {}) {
  return new Promise((resolve) => {
    const onMessage = (m) => {
      if (m.type !== type) return
      child.off('message', onMessage)
      resolve(m)
    }
    child.on('message', onMessage)
    child.send({ type, ...payload })
  })
}

/** Stops a server process and waits until it is gone. */
export function stopServer(child) {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve()
  return new Promise((resolve) => {
    child.once('exit', () => resolve())
    child.send({ type: 'stop' })
  })
}

/** One autocannon run, silent. */
export function load(options) {
  return new Promise((resolve, reject) => {
    const instance = autocannon(options, (error, result) =>
      error ? reject(error) : resolve(result),
    )
    autocannon.track(instance, {
      renderProgressBar: false,
      renderResultsTable: false,
      renderLatencyTable: false,
    })
  })
}

/** A run whose figures are thrown away but its rate (2xx/s), which sizes runs of single-use codes. */
export async function warmUp(options) {
  if (!options.amount && !options.duration) return 0
  const result = await load(options)
  return result['2xx'] / result.duration
}

/** Codes for about `seconds` at `rate`, within bounds (issuing them takes time too). */
export const codesFor = (rate, seconds) =>
  Math.min(20_000, Math.max(300, Math.round(rate * seconds)))

/** Per-core jiffies from /proc/stat: busy (user, nice, system, irq, softirq), steal, total. */
function coreTimes() {
  const cores = {}
  for (const line of readFileSync('/proc/stat', 'utf8').split('\n')) {
    const m = /^cpu(\d+)\s+(.*)$/.exec(line)
    if (!m) continue
    const [user, nice, system, idle, iowait, irq, softirq, steal] = m[2].split(' ').map(Number)
    const busy = user + nice + system + irq + softirq
    cores[m[1]] = { busy, steal, total: busy + idle + iowait + steal }
  }
  return cores
}

const corePct = (before, after, core) => {
  const a = before[core]
  const b = after[core]
  if (!a || !b) return null
  const total = b.total - a.total || 1
  return {
    busyPct: Math.round((100 * (b.busy - a.busy)) / total),
    stealPct: Math.round((100 * (b.steal - a.steal)) / total),
  }
}

/**
 * The server's main thread as the scheduler saw it (/proc/<pid>/schedstat,
 * ns): time running and time runnable but waiting for its core. Waiting
 * means other processes held the core; neither means it idled for requests.
 */
function schedstat(pid) {
  try {
    const [running, waiting] = readFileSync(`/proc/${pid}/schedstat`, 'utf8').split(' ').map(Number)
    return { running, waiting }
  } catch {
    return null
  }
}

const cpuMicros = (usage) => usage.user + usage.system
const pct = (micros, seconds) => Math.round(micros / (seconds * 10_000))

/**
 * A warm-up run, then the measured run, with the server's CPU time (IPC
 * `cpu`), this process's CPU time and both cores' /proc/stat counters taken
 * around the measured window only.
 *
 * `serverCpuUsPerRequest` is server CPU µs per 2xx answer. `serverCorePct`
 * below ~95 means the server was not the bottleneck (the generator or the
 * database was, or it lost its core); `core0BusyPct` above `serverCorePct`
 * is other processes on the server's core. `dbCpuMicros` (PostgreSQL: the
 * CPU time of the server's database backends) gives `dbCpuUsPerRequest`.
 */
export async function measure(child, { warmup, run, dbCpuMicros }) {
  if (warmup) await warmUp(warmup)
  const db0 = await dbCpuMicros?.()
  const server0 = (await call(child, 'cpu')).usage
  const generator0 = process.cpuUsage()
  const cores0 = coreTimes()
  const sched0 = schedstat(child.pid)
  const result = await load(run)
  const sched1 = schedstat(child.pid)
  const cores1 = coreTimes()
  const generatorMicros = cpuMicros(process.cpuUsage(generator0))
  const server1 = (await call(child, 'cpu')).usage
  const dbMicros = dbCpuMicros ? (await dbCpuMicros()) - db0 : null
  const serverMicros = cpuMicros(server1) - cpuMicros(server0)
  const ok = result['2xx']
  const seconds = result.duration
  const serverCore = corePct(cores0, cores1, String(SERVER_CORE))
  const generatorCore = corePct(cores0, cores1, String(GENERATOR_CORE))
  return {
    requestsPerSecond: Math.round(ok / seconds),
    answered: ok,
    non2xx: result.non2xx,
    errors: result.errors + result.timeouts,
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    seconds,
    serverCpuUsPerRequest: ok ? Math.round(serverMicros / ok) : null,
    dbCpuUsPerRequest: ok && dbMicros !== null ? Math.round(dbMicros / ok) : null,
    generatorCpuUsPerRequest: ok ? Math.round(generatorMicros / ok) : null,
    serverCorePct: pct(serverMicros, seconds),
    // Runnable but not running: the share of the window the server lost to other processes.
    serverWaitedPct:
      sched0 && sched1
        ? Math.round((sched1.waiting - sched0.waiting) / (seconds * 10_000_000))
        : null,
    generatorCorePct: pct(generatorMicros, seconds),
    core0BusyPct: serverCore?.busyPct ?? null,
    core1BusyPct: generatorCore?.busyPct ?? null,
    stealPct: Math.max(serverCore?.stealPct ?? 0, generatorCore?.stealPct ?? 0),
  }
}

/** What the machine was doing: the figures to quote next to any requests/s. */
export function machineState() {
  const mhz = [...readFileSync('/proc/cpuinfo', 'utf8').matchAll(/cpu MHz\s*:\s*([\d.]+)/g)].map(
    (m) => Math.round(Number(m[1])),
  )
  return {
    cores: cpus().length,
    mhz,
    loadAverage: loadavg().map((l) => Math.round(l * 100) / 100),
    node: process.version,
  }
}

/** Seconds from an environment variable, or a default. */
export const seconds = (name, fallback) => Number(process.env[name] ?? fallback)

/** Picks the next item of a list, round robin (autocannon's setupRequest has no per-request index). */
export function roundRobin(items) {
  let i = 0
  return () => items[i++ % items.length]
}
