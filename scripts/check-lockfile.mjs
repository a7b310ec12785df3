#!/usr/bin/env node
// Fails when package-lock.json holds an entry a fresh machine cannot install:
// every package other than the root and the workspaces (and links to them)
// must carry a `version` and an `integrity` hash. An entry without them only
// installs from a warm npm cache (npm ci: "Invalid Version:").
//   node scripts/check-lockfile.mjs [path/to/package-lock.json]
import { readFileSync } from 'node:fs'

const path = process.argv[2] ?? new URL('../package-lock.json', import.meta.url)
const lock = JSON.parse(readFileSync(path, 'utf8'))
if (lock.lockfileVersion !== 3) fail([`lockfileVersion is ${lock.lockfileVersion}, expected 3`])

const workspaces = new Set(
  Object.entries(lock.packages)
    .filter(([, entry]) => entry.link)
    .map(([, entry]) => entry.resolved),
)
const problems = []
let checked = 0
for (const [key, entry] of Object.entries(lock.packages)) {
  if (key === '' || entry.link || workspaces.has(key)) continue
  checked++
  const missing = ['version', 'integrity'].filter((field) => !entry[field])
  if (missing.length) problems.push(`${key}: no ${missing.join(', no ')}`)
}
if (problems.length) fail(problems)
console.log(`package-lock.json: ${checked} packages, each with a version and an integrity hash`)

function fail(lines) {
  console.error(
    `package-lock.json cannot be installed on a fresh machine:\n  ${lines.join('\n  ')}`,
  )
  console.error('Regenerate it with the npm that ships with Node: npm install --package-lock-only')
  process.exit(1)
}
