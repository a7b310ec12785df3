import type { Kysely } from 'kysely'
import type { Database } from '../db/types.ts'

/** How many of a user's sessions are live (neither revoked nor expired) at `now`. */
export async function countLiveSessions(
  db: Kysely<Database>,
  userId: string,
  now: number,
): Promise<number> {
  const sessions = await db
    .selectFrom('sessions')
    .select('id')
    .where('user_id', '=', userId)
    .where('revoked_at', 'is', null)
    .where('expires_at', '>', now)
    .execute()
  return sessions.length
}
