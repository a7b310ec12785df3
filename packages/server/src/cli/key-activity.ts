import { KEY_ACTIVITY_MAX_LIMIT } from '@latchkey/protocol'
import type { Kysely } from 'kysely'
import type { Database } from '../db/types.ts'
import { listKeyReleases } from '../wallets/key-releases.ts'

export interface PrintKeyActivityParameters {
  db: Kysely<Database>
  userId: string
  /** Rows to print, newest first (default and most: 100). */
  limit?: number
  json: boolean
  out: (line: string) => void
}

/**
 * `latchkey users key-activity USER_ID`: the user's key releases, newest first,
 * one line each (time, kind, entropy id, IP, session, enclave key, user agent), or the
 * wire rows as JSON. Returns how many rows it printed.
 *
 * @example
 * await printKeyActivity({ db, userId: 'did:latchkey:…', json: false, out: console.log })
 */
export async function printKeyActivity(parameters: PrintKeyActivityParameters): Promise<number> {
  const { db, userId, json, out } = parameters
  const limit = Math.min(
    Math.max(parameters.limit ?? KEY_ACTIVITY_MAX_LIMIT, 1),
    KEY_ACTIVITY_MAX_LIMIT,
  )
  const { data } = await listKeyReleases(db, { userId, limit })
  if (json) {
    out(JSON.stringify(data))
    return data.length
  }
  if (data.length === 0) out(`No key releases recorded for ${userId}`)
  for (const row of data)
    out(
      [
        new Date(row.created_at * 1000).toISOString(),
        row.kind.padEnd(10),
        row.entropy_id,
        `ip ${row.ip ?? '-'}`,
        `session ${row.session_id}`,
        `key ${row.enclave_key_thumbprint ?? '-'}`,
        row.user_agent ?? '-',
      ].join('  '),
    )
  return data.length
}
