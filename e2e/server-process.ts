import { type ChildProcess, spawn } from 'node:child_process'
import { join } from 'node:path'
import { createInterface } from 'node:readline'
import { freePort } from '@latchkey/server/test/chains'
import type { LatchkeyServerFixture } from './fixtures/latchkey-server.ts'

export { freePort }

// The Latchkey server in a process of its own (e2e/fixtures/latchkey-server.ts),
// for tests that kill it and start it again on the same port and database.

const ROOT = join(import.meta.dirname, '..')
const FIXTURE = join(import.meta.dirname, 'fixtures/latchkey-server.ts')

/** A port nobody listens on now, for a server that must come back on the same one. */

export interface ServerProcess {
  url: string
  child: ChildProcess
  /** The exit signal (or code). */
  exited: Promise<NodeJS.Signals | number | null>
}

/** Starts e2e/fixtures/latchkey-server.ts and waits until it serves. */
export async function startServerProcess(options: LatchkeyServerFixture): Promise<ServerProcess> {
  const child = spawn(
    process.execPath,
    ['--conditions=latchkey-source', '--import', 'tsx', FIXTURE, JSON.stringify(options)],
    {
      cwd: ROOT,
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  )
  const exited = new Promise<NodeJS.Signals | number | null>((resolve) =>
    child.once('exit', (code, signal) => resolve(signal ?? code)),
  )
  const url = await new Promise<string>((resolve, reject) => {
    createInterface({ input: child.stdout as NodeJS.ReadableStream }).once('line', (line) =>
      resolve((JSON.parse(line) as { url: string }).url),
    )
    child.once('error', reject)
    child.once('exit', (code, signal) =>
      reject(new Error(`the Latchkey server exited (${signal ?? code}) before serving`)),
    )
  })
  return { url, child, exited }
}

/** Stops the server: SIGTERM, and SIGKILL when it has not exited 5 s later. */
export async function stopServerProcess(server: ServerProcess): Promise<void> {
  if (server.child.exitCode !== null || server.child.signalCode !== null) return
  server.child.kill('SIGTERM')
  // A server stuck in the SQLite stall never runs its SIGTERM handler.
  const timer = setTimeout(() => server.child.kill('SIGKILL'), 5_000)
  await server.exited
  clearTimeout(timer)
}
