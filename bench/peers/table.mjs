// The peer benchmark's printout: one row per measurement, then the ratios
// that the targets are stated in.

const columns = [
  ['database', (r) => r.database],
  ['system', (r) => r.system],
  ['operation', (r) => r.operation],
  ['req/s', (r) => r.requestsPerSecond],
  ['p50 ms', (r) => r.p50Ms],
  ['p99 ms', (r) => r.p99Ms],
  ['non-2xx', (r) => r.non2xx + r.errors],
  ['CPU µs/req', (r) => r.serverCpuUsPerRequest],
  ['+ DB µs/req', (r) => r.dbCpuUsPerRequest],
  ['server core %', (r) => r.serverCorePct],
  ['server waited %', (r) => r.serverWaitedPct],
  ['core 0 busy %', (r) => r.core0BusyPct],
  ['generator %', (r) => r.generatorCorePct],
  ['steal %', (r) => r.stealPct],
]

export function formatTable(rows) {
  const cells = [
    columns.map(([name]) => name),
    ...rows.map((r) => columns.map(([, f]) => String(f(r) ?? '-'))),
  ]
  const widths = columns.map((_, i) => Math.max(...cells.map((c) => c[i].length)))
  return cells
    .map((c) =>
      c.map((cell, i) => (i < 3 ? cell.padEnd(widths[i]) : cell.padStart(widths[i]))).join('  '),
    )
    .join('\n')
}

const times = (a, b) => (a && b ? `${(a / b).toFixed(2)}×` : '-')

/** Server CPU per request, plus its PostgreSQL backends' where measured. */
const cpuPerRequest = (r) => (r.serverCpuUsPerRequest ?? 0) + (r.dbCpuUsPerRequest ?? 0)

/**
 * Ours against theirs, per database: requests/s ours / theirs (the target:
 * ≥ 3×), and CPU per request (server + database) theirs / ours: how many
 * times more requests ours answers per CPU second, steadier when the machine
 * is busy.
 */
export function formatRatios(rows, pairs) {
  const find = (database, system, operation) =>
    rows.find((r) => r.database === database && r.system === system && r.operation === operation)
  const cells = [['database', 'ours', 'theirs', 'req/s', 'CPU/req']]
  for (const database of new Set(rows.map((r) => r.database)))
    for (const [ours, theirs] of pairs) {
      const a = find(database, 'latchkey', ours)
      const b = find(database, 'better-auth', theirs)
      if (!a || !b) continue
      cells.push([
        database,
        ours,
        theirs,
        times(a.requestsPerSecond, b.requestsPerSecond),
        times(cpuPerRequest(b), cpuPerRequest(a)),
      ])
    }
  const widths = cells[0].map((_, i) => Math.max(...cells.map((c) => c[i].length)))
  return cells
    .map((c) =>
      c.map((cell, i) => (i < 3 ? cell.padEnd(widths[i]) : cell.padStart(widths[i]))).join('  '),
    )
    .join('\n')
}

/** The middle value of each numeric field across repeated runs of one row. */
export function medianRow(runs) {
  const median = (values) => {
    const sorted = values.filter((v) => typeof v === 'number').sort((a, b) => a - b)
    return sorted.length ? sorted[Math.floor((sorted.length - 1) / 2)] : null
  }
  const row = { ...runs[0] }
  for (const [key, value] of Object.entries(row))
    if (typeof value === 'number') row[key] = median(runs.map((r) => r[key]))
  row.runs = runs.length
  if (runs.length > 1) row.requestsPerSecondRange = runs.map((r) => r.requestsPerSecond)
  return row
}
