#!/usr/bin/env node
// `next build` of examples/nextjs unless its .next/ already holds a build of
// the same inputs: the example's own files and the built packages it imports
// (their dist/, as an app installing them gets them), and the lockfile. The
// inputs' fingerprint is kept in .next/latchkey-inputs.
//
// e2e/nextjs.test.ts runs this before it starts `next start`; `.ci/run` runs
// it in the build stage, beside the type-check, so the browser tests do not
// spend a worker on a minute of Turbopack (docs/testing.md).
import { spawn } from 'node:child_process'
import { createHash } from 'node:crypto'
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { dirname, join, relative } from 'node:path'
import { fileURLToPath } from 'node:url'

const root = join(dirname(fileURLToPath(import.meta.url)), '..')
const example = join(root, 'examples/nextjs')
const stamp = join(example, '.next/latchkey-inputs')
const SKIP = new Set(['.next', 'node_modules', 'next-env.d.ts'])
const INPUTS = [
  'examples/nextjs',
  'packages/protocol/dist',
  'packages/core/dist',
  'packages/react/dist',
  'packages/server/dist',
  'package-lock.json',
]

function files(path) {
  const full = join(root, path)
  if (!existsSync(full)) return []
  if (!statSync(full).isDirectory()) return [full]
  return readdirSync(full, { withFileTypes: true })
    .filter((entry) => !SKIP.has(entry.name))
    .flatMap((entry) => files(join(path, entry.name)))
}

function fingerprint() {
  const hash = createHash('sha256')
  for (const file of INPUTS.flatMap(files).sort())
    hash.update(relative(root, file)).update('\0').update(readFileSync(file)).update('\0')
  return hash.digest('hex')
}

/** Builds the example unless it is up to date; rejects with `next build`'s output when it fails. */
export async function buildNextjsIfStale() {
  const wanted = fingerprint()
  if (existsSync(stamp) && readFileSync(stamp, 'utf8').trim() === wanted) return 'up to date'
  const next = createRequire(join(example, 'package.json')).resolve('next/dist/bin/next')
  const output = await new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [next, 'build'], {
      cwd: example,
      // Next asks to send telemetry; a build here sends nothing.
      env: { ...process.env, NEXT_TELEMETRY_DISABLED: '1' },
    })
    let text = ''
    child.stdout.on('data', (chunk) => (text += chunk))
    child.stderr.on('data', (chunk) => (text += chunk))
    child.once('error', reject)
    child.once('exit', (code) =>
      code === 0 ? resolve(text) : reject(new Error(`next build exited ${code}:\n${text}`)),
    )
  })
  writeFileSync(stamp, `${wanted}\n`)
  return output
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const started = performance.now()
  const result = await buildNextjsIfStale()
  const seconds = ((performance.now() - started) / 1000).toFixed(1)
  console.log(
    result === 'up to date'
      ? 'examples/nextjs is up to date (.next/latchkey-inputs).'
      : `examples/nextjs built in ${seconds} s.`,
  )
}
