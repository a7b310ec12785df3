import type { Kysely } from 'kysely'
import type { Database } from '../db/types.ts'
import { createAppSecret, listAppSecrets, revokeAppSecret } from './app-secrets.ts'

// `latchkey apps secret create|list|revoke` (docs/server-api.md "App secrets").
// The specs are spread into cli/commands.ts COMMANDS; runCli (cli.ts) hands
// the three commands to appSecretCommand.

const json = { type: 'boolean', help: 'print JSON on stdout' } as const

/** The app-secret commands, as cli/commands.ts `CommandSpec`s. */
export const APP_SECRET_COMMANDS = [
  {
    path: ['apps', 'secret', 'create'],
    args: ['ID'],
    synopsis: 'ID [--json]',
    summary: 'make a new secret for the app; prints it once (only its hash is stored)',
    flags: { json },
    notes: [
      'An app may have several live secrets: to rotate, create a new one, deploy it to your ' +
        'backend, then revoke the old one (apps secret revoke). Your backend sends it as ' +
        'Authorization: Basic base64(appId:secret) (docs/server-api.md).',
    ],
  },
  {
    path: ['apps', 'secret', 'list'],
    args: ['ID'],
    synopsis: 'ID [--json]',
    summary: "list the app's secrets: ids, when made, last used, revoked (never the secrets)",
    flags: { json },
  },
  {
    path: ['apps', 'secret', 'revoke'],
    args: ['ID', 'SECRET_ID'],
    synopsis: 'ID SECRET_ID',
    summary: "revoke one of the app's secrets: refused from now on (a running server: at once)",
    flags: {},
  },
] as const

export interface AppSecretCommandInput {
  db: Kysely<Database>
  /** The command: `apps secret create`, `apps secret list` or `apps secret revoke`. */
  key: string
  positionals: string[]
  /** The parsed flags (`json`). */
  values: Record<string, unknown>
  now?: number
  out: (line: string) => void
  err: (line: string) => void
}

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString())

/** Runs `apps secret <action>`; the exit code. */
export async function appSecretCommand(input: AppSecretCommandInput): Promise<number> {
  const { db, positionals, out, err } = input
  const action = input.key.split(' ')[2]
  const json = input.values.json === true
  const [appId = '', secretId = ''] = positionals
  const now = input.now ?? Date.now()
  try {
    if (action === 'create') {
      const { id, secret, createdAt } = await createAppSecret(db, appId, now)
      if (json) out(JSON.stringify({ id, secret, created_at: iso(createdAt) }))
      else {
        out(`Secret id:  ${id}`)
        out(`App secret: ${secret}`)
        out('The secret is shown only now; store it safely (only its hash is kept).')
      }
      return 0
    }
    if (action === 'list') {
      const secrets = await listAppSecrets(db, appId)
      const rows = secrets.map((s) => ({
        id: s.id,
        created_at: iso(s.createdAt),
        last_used_at: iso(s.lastUsedAt),
        revoked_at: iso(s.revokedAt),
      }))
      if (json) out(JSON.stringify(rows))
      else
        for (const row of rows)
          out(
            `${row.id}  created ${row.created_at}  last used ${row.last_used_at ?? 'never'}` +
              (row.revoked_at ? `  revoked ${row.revoked_at}` : '  live'),
          )
      return 0
    }
    if (await revokeAppSecret(db, appId, secretId, now)) {
      out(`Revoked secret ${secretId} of app ${appId}`)
      return 0
    }
    err(`App ${appId} has no live secret ${secretId} (latchkey apps secret list ${appId})`)
    return 1
  } catch (error) {
    err(`Error: ${(error as Error).message}`)
    return 1
  }
}
