import { chmodSync, renameSync, rmSync } from 'node:fs'
import { resolve } from 'node:path'
import SqliteDatabase from 'better-sqlite3'
import type { DataLocation } from './data-location.ts'

/**
 * `latchkey backup FILE`: an online copy of the SQLite database (SQLite's
 * backup API, through better-sqlite3), consistent even while a server writes.
 * It is written beside FILE and renamed over it once complete, so a failed
 * run never replaces an earlier good backup; mode 0600. PostgreSQL is refused
 * with a pointer to pg_dump.
 *
 * @example
 * await backupCommand({ location, file: 'backups/latchkey-2030-01-01.sqlite', cwd, out, err })
 */
export async function backupCommand(parameters: {
  location: DataLocation
  file: string
  cwd: string
  out: (line: string) => void
  err: (line: string) => void
}): Promise<number> {
  const { location, out, err } = parameters
  if (location.database.kind === 'postgres') {
    err(
      'latchkey backup copies the SQLite database only. For PostgreSQL use pg_dump, e.g. ' +
        'pg_dump --format=custom --file=latchkey.dump "$DATABASE_URL" (docs/operations.md)',
    )
    return 1
  }
  const source = location.database.file
  const target = resolve(parameters.cwd, parameters.file)
  if (target === resolve(source)) {
    err(`${parameters.file} is the database itself: name another file`)
    return 1
  }
  const partial = `${target}.partial-${process.pid}`
  const database = new SqliteDatabase(source, { readonly: true, fileMustExist: true })
  try {
    const { totalPages } = await database.backup(partial)
    chmodSync(partial, 0o600)
    renameSync(partial, target)
    out(`Backed up ${source} to ${target} (${totalPages} pages)`)
    return 0
  } catch (error) {
    rmSync(partial, { force: true })
    err(`Backup failed: ${(error as Error).message}`)
    return 1
  } finally {
    database.close()
  }
}
