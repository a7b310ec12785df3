import type { Kysely } from 'kysely'
import { appSecretCommand } from '../apps/app-secrets-cli.ts'
import { adminCommand } from '../console/admin-cli.ts'
import type { Database } from '../db/types.ts'

// Commands whose module holds both their specs and their runner: runCli
// (cli.ts) hands them over here, so a new group adds a line here, not there.

export interface ModuleCommandInput {
  db: Kysely<Database>
  /** The command words, e.g. `admin create`. */
  key: string
  positionals: string[]
  values: Record<string, unknown>
  out: (line: string) => void
  err: (line: string) => void
}

/** Runs the command if a module owns it: its exit code, else undefined. */
export async function moduleCommand(input: ModuleCommandInput): Promise<number | undefined> {
  if (input.key.startsWith('apps secret ')) return appSecretCommand(input)
  if (input.key.startsWith('admin ')) return adminCommand(input)
  return undefined
}
