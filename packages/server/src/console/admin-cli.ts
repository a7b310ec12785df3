import type { Kysely } from 'kysely'
import type { Database } from '../db/types.ts'
import { createAdmin, listAdmins, revokeAdmin } from './admin-credentials.ts'

// `latchkey admin create|list|revoke` (docs/console.md "Admins"). The specs
// are spread into cli/commands.ts COMMANDS; runCli (cli.ts) hands the three
// commands to adminCommand through cli/module-commands.ts.

const json = { type: 'boolean', help: 'print JSON on stdout' } as const

/** The admin commands, as cli/commands.ts `CommandSpec`s. */
export const ADMIN_COMMANDS = [
  {
    path: ['admin', 'create'],
    args: ['NAME'],
    synopsis: 'NAME [--json]',
    summary: 'make an admin credential for the console at /console; prints its token once',
    flags: { json },
    notes: [
      'The token signs in to the admin console (docs/console.md). Only a salted scrypt hash ' +
        'of it is stored: a lost token cannot be shown again; revoke it and make another.',
    ],
  },
  {
    path: ['admin', 'list'],
    synopsis: '[--json]',
    summary: 'list the admin credentials: ids, names, when made, last used, revoked',
    flags: { json },
  },
  {
    path: ['admin', 'revoke'],
    args: ['ID'],
    synopsis: 'ID',
    summary: 'revoke an admin credential; its console sessions end at once',
    flags: {},
  },
] as const

export interface AdminCommandInput {
  db: Kysely<Database>
  /** The command: `admin create`, `admin list` or `admin revoke`. */
  key: string
  positionals: string[]
  /** The parsed flags (`json`). */
  values: Record<string, unknown>
  now?: number
  out: (line: string) => void
  err: (line: string) => void
}

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString())

/** Runs `admin <action>`; the exit code. */
export async function adminCommand(input: AdminCommandInput): Promise<number> {
  const { db, positionals, out, err } = input
  const action = input.key.split(' ')[1]
  const asJson = input.values.json === true
  const now = input.now ?? Date.now()
  const [arg = ''] = positionals
  if (action === 'create') {
    const { id, name, token, createdAt } = await createAdmin(db, arg, now)
    if (asJson) out(JSON.stringify({ id, name, token, created_at: iso(createdAt) }))
    else {
      out(`Admin id:    ${id}`)
      out(`Admin token: ${token}`)
      out('The token is shown only now; store it safely (only its hash is kept).')
      out('Sign in with it at /console on the server.')
    }
    return 0
  }
  if (action === 'list') {
    const rows = (await listAdmins(db)).map((a) => ({
      id: a.id,
      name: a.name,
      created_at: iso(a.createdAt),
      last_used_at: iso(a.lastUsedAt),
      revoked_at: iso(a.revokedAt),
    }))
    if (asJson) out(JSON.stringify(rows))
    else if (rows.length === 0) out('No admins yet: latchkey admin create NAME')
    else
      for (const row of rows)
        out(
          `${row.id}  ${row.name}  created ${row.created_at}  last used ${row.last_used_at ?? 'never'}` +
            (row.revoked_at ? `  revoked ${row.revoked_at}` : '  live'),
        )
    return 0
  }
  if (await revokeAdmin(db, arg, now)) {
    out(`Revoked admin ${arg}; its console sessions have ended`)
    return 0
  }
  err(`No live admin ${arg} (latchkey admin list)`)
  return 1
}
