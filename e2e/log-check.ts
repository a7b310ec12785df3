import { mkdirSync, rmSync } from 'node:fs'
import { join } from 'node:path'
import type { Logger } from '@latchkey/server'
import {
  findSecretsInLogDir,
  type KnownSecrets,
} from '../packages/server/src/logging/secret-scan.ts'

// Issue 20 item 6: the servers of an e2e run write their JSON logs (level
// debug) into one folder; after the run, the logs are searched for the codes
// the dev mailbox and outbox delivered and for token, refresh-token and share
// shapes (packages/server/src/logging/secret-scan.ts). One leak fails the run.

/** Where runs keep their logs (gitignored); a clean run's folder is removed. */
const LOG_ROOT = join(import.meta.dirname, '.logs')

/** Server processes started by tests (fixtures/latchkey-server.ts) log here too. */
export const E2E_LOG_DIR_ENV = 'LATCHKEY_E2E_LOG_DIR'

/** A folder of this run's own: concurrent runs never read each other's logs. */
export function createRunLogDir(): string {
  const dir = join(LOG_ROOT, `run-${Date.now().toString(36)}-${process.pid}`)
  mkdirSync(dir, { recursive: true })
  return dir
}

/** The server's JSON logger, its errors echoed to stderr as well: a failing run shows them. */
export function e2eLogger(json: Logger): Logger {
  return {
    ...json,
    error: (message, fields) => {
      json.error(message, fields)
      console.error(message)
    },
  }
}

/**
 * Throws, quoting the offending lines, when a log of the run holds a secret;
 * else removes the folder (kept with LATCHKEY_E2E_KEEP_LOGS=1, to read it).
 */
export function assertNoSecretsInLogs(dir: string, known: KnownSecrets): void {
  const leaks = findSecretsInLogDir(dir, known)
  if (leaks.length === 0) {
    if (process.env.LATCHKEY_E2E_KEEP_LOGS !== '1') rmSync(dir, { recursive: true, force: true })
    return
  }
  // Vitest reports a global teardown's error but keeps the exit status: set it.
  process.exitCode = 1
  const shown = leaks
    .slice(0, 5)
    .map((leak) => `  ${leak.file}:${leak.line} (${leak.kind}): ${leak.text.slice(0, 500)}`)
  throw new Error(
    `The e2e servers logged ${leaks.length} secret(s) (logs kept in ${dir}):\n${shown.join('\n')}`,
  )
}
