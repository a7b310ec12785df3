import type { Kysely } from 'kysely'
import { appSecretCommand } from '../apps/app-secrets-cli.ts'
import type { LatchkeyServerOptions } from '../config.ts'
import { adminCommand } from '../console/admin-cli.ts'
import type { Database } from '../db/types.ts'
import { delegationPolicyCommand } from '../delegation/cli.ts'
import { smartWalletCli } from '../smart-wallets/cli.ts'
import { webhookCommand } from '../webhooks/cli.ts'

// Commands whose module holds both their specs and their runner: runCli
// (cli.ts) hands them over here, so a new group adds a line here, not there.

export interface ModuleCommandInput {
  db: Kysely<Database>
  /** The command words, e.g. `admin create`. */
  key: string
  positionals: string[]
  values: Record<string, unknown>
  /** The environment (`*-env` flags), the configuration from it (the master key) and the data folder. */
  env: NodeJS.ProcessEnv
  config: LatchkeyServerOptions
  dataDir: string
  out: (line: string) => void
  err: (line: string) => void
}

/** Runs the command if a module owns it: its exit code, else undefined. */
export async function moduleCommand(input: ModuleCommandInput): Promise<number | undefined> {
  if (input.key.startsWith('apps secret ')) return appSecretCommand(input)
  if (input.key.startsWith('admin ')) return adminCommand(input)
  if (input.key.startsWith('apps webhook ')) return webhookCommand(input)
  if (input.key.startsWith('apps delegation-policy ')) return delegationPolicyCommand(input)
  if (input.key.startsWith('apps smart-wallets ')) return smartWalletCli(input)
  return undefined
}
