// `npm run bench:load`: the load of packages/server/src/load.two-nodes.test.ts
// (tracker issue 20, item 3) as a benchmark: two server processes on one
// PostgreSQL schema and one Redis, email-login flows, refresh chains
// alternating nodes, one last rotation per session and an audit of the
// session families in SQL. Same summary lines as the test; larger counts with
// LOAD_FLOWS, LOAD_REFRESHES, LOAD_CONCURRENCY (defaults 1,000 / 10,000 / 64),
// CLUSTER_DATABASE_URL for another PostgreSQL. Figures: docs/operations.md "Sizing".
import { availableParallelism, loadavg } from 'node:os'
import { missingClusterServices } from '../packages/server/src/test/cluster.ts'
import {
  auditFamilies,
  lastRotation,
  loadOptionsFromEnv,
  loginFlows,
  refreshChains,
  startLoad,
  stopLoad,
} from '../packages/server/src/test/load.ts'
import { formatPhase } from '../packages/server/src/test/load-stats.ts'

if ((await missingClusterServices('bench:load')).length) process.exit(1)
const options = loadOptionsFromEnv()
console.log(
  `bench:load · ${options.flows} flows, ${options.refreshes} refreshes, ${options.concurrency} in flight · ` +
    `${availableParallelism()} cores · node ${process.version} · load avg ${loadavg()[0].toFixed(2)} before`,
)
const run = await startLoad(options)
let failures = 0
try {
  for (const phase of [loginFlows, refreshChains, lastRotation]) {
    const report = await phase(run)
    console.log(formatPhase(report))
    for (const message of report.messages) console.log(`  ${message}`)
    failures += report.failures
  }
  const audit = await auditFamilies(run)
  console.log(
    `load audit: ${audit.sessions} session families, ${audit.revoked} revoked, ${audit.wrong.length} not as held`,
  )
  for (const wrong of audit.wrong.slice(0, 5)) console.log(`  ${wrong}`)
  failures += audit.revoked + audit.wrong.length
} finally {
  await stopLoad(run)
}
process.exitCode = failures ? 1 : 0
