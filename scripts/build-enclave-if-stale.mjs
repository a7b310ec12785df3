#!/usr/bin/env node
// `npm start`'s first step: builds the enclave's page scripts (npm run
// build:enclave) unless packages/enclave/dist already holds a build of the
// same inputs. The inputs' fingerprint (every file the bundles can come from:
// the enclave's and protocol's sources, the build config, the lockfile) is
// kept beside the bundles in dist/.inputs.
import { spawnSync } from 'node:child_process'
import { createHash } from 'node:crypto'
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs'
import { dirname, join, relative } from 'node:path'
import { fileURLToPath } from 'node:url'

const root = join(dirname(fileURLToPath(import.meta.url)), '..')
const dist = join(root, 'packages/enclave/dist')
const stamp = join(dist, '.inputs')
const INPUTS = [
  'packages/enclave/src',
  'packages/enclave/vite.config.ts',
  'packages/enclave/package.json',
  'packages/protocol/src',
  'packages/protocol/package.json',
  'package-lock.json',
]

function files(path) {
  const full = join(root, path)
  if (!existsSync(full)) return []
  if (!statSync(full).isDirectory()) return [full]
  return readdirSync(full, { recursive: true })
    .map((name) => join(full, String(name)))
    .filter((file) => statSync(file).isFile() && !/\.test(-helper)?\.tsx?$/.test(file))
    .sort()
}

function fingerprint() {
  const hash = createHash('sha256')
  for (const file of INPUTS.flatMap(files))
    hash.update(relative(root, file)).update('\0').update(readFileSync(file)).update('\0')
  return hash.digest('hex')
}

const wanted = fingerprint()
const built = ['enclave.js', 'export.js'].every((name) => existsSync(join(dist, name)))
if (built && existsSync(stamp) && readFileSync(stamp, 'utf8').trim() === wanted) {
  console.log('Enclave scripts are up to date (packages/enclave/dist).')
  process.exit(0)
}
const result = spawnSync('npm', ['run', '-s', 'build:enclave'], { cwd: root, stdio: 'inherit' })
if (result.status !== 0) process.exit(result.status ?? 1)
writeFileSync(stamp, `${wanted}\n`)
