import { existsSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { isPostgresUrl, sqliteFile } from '../db/connect.ts'
import { findProjectRoot, type ProjectRoot } from './project-root.ts'

export interface ResolveDataLocationParameters {
  /** The folder the command runs from: relative paths and the project root are found from it. */
  cwd: string
  env: NodeJS.ProcessEnv
  /** The `--data` flag. */
  data?: string
}

/** Where the CLI keeps its data, and which database it opens. */
export interface DataLocation {
  /** The data folder: the SQLite file and the development master key. */
  dataDir: string
  /** Where `dataDir` came from. */
  source: { kind: 'flag' } | { kind: 'env' } | { kind: 'project'; root: ProjectRoot; cwd: string }
  database:
    | { kind: 'sqlite'; file: string; exists: boolean }
    /** `display` is the URL without its password, for printing. */
    | { kind: 'postgres'; display: string }
  /** `DATABASE_URL` is set but is not a postgres:// URL, so it is ignored. */
  ignoredDatabaseUrl: boolean
}

/** The folder under the project root that holds the data by default. */
export const DEFAULT_DATA_FOLDER = '.data'

/**
 * The one place the CLI and `latchkey serve` look for their data: `--data`,
 * else `LATCHKEY_DATA_DIR` (both relative to `cwd`), else `.data` in the
 * project root (see `findProjectRoot`), never a folder that merely happens
 * to be current. `DATABASE_URL=postgres://…` selects PostgreSQL instead of
 * the SQLite file; the data folder still holds the development master key.
 *
 * @example
 * const location = resolveDataLocation({ cwd: '/repo/apps/demo', env: {} })
 * location.dataDir // '/repo/.data'
 */
export function resolveDataLocation({
  cwd,
  env,
  data,
}: ResolveDataLocationParameters): DataLocation {
  let dataDir: string
  let source: DataLocation['source']
  if (data !== undefined) {
    dataDir = resolve(cwd, data)
    source = { kind: 'flag' }
  } else if (env.LATCHKEY_DATA_DIR) {
    dataDir = resolve(cwd, env.LATCHKEY_DATA_DIR)
    source = { kind: 'env' }
  } else {
    const root = findProjectRoot(cwd)
    dataDir = join(root.dir, DEFAULT_DATA_FOLDER)
    source = { kind: 'project', root, cwd: resolve(cwd) }
  }
  const url = env.DATABASE_URL || undefined
  const file = sqliteFile(dataDir)
  return {
    dataDir,
    source,
    database: isPostgresUrl(url)
      ? { kind: 'postgres', display: withoutPassword(url) }
      : { kind: 'sqlite', file, exists: existsSync(file) },
    ignoredDatabaseUrl: url !== undefined && !isPostgresUrl(url),
  }
}

/** `postgres://user:pw@host/db?password=…` → `postgres://user@host/db`. */
function withoutPassword(url: string): string {
  try {
    const parsed = new URL(url)
    parsed.password = ''
    for (const key of [...parsed.searchParams.keys()])
      if (/pass/i.test(key)) parsed.searchParams.delete(key)
    return parsed.toString()
  } catch {
    return `${url.slice(0, url.indexOf(':'))}://… (unparsable URL)`
  }
}
