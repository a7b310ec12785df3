import { type Kysely, sql } from 'kysely'

// Tracker issue 20 (two nodes): nodes started together on a fresh database
// each found no active signing key and each made one, so they published
// different key sets and signed with different keys. At most one key is
// active from now on: a unique index over the active rows (the same
// expression for each, so a second one collides). Keys already active
// beside the newest (the one every node signs with) are retired now: they
// stay published until the tokens they signed have expired.
// biome-ignore lint/suspicious/noExplicitAny: migrations must not depend on the current table types (Kysely guidance)
export async function up(db: Kysely<any>): Promise<void> {
  const newest = await db
    .selectFrom('signing_keys')
    .select('kid')
    .where('retired_at', 'is', null)
    .orderBy('created_at', 'desc')
    .executeTakeFirst()
  if (newest)
    await db
      .updateTable('signing_keys')
      .set({ retired_at: Date.now() })
      .where('retired_at', 'is', null)
      .where('kid', '!=', newest.kid)
      .execute()
  await sql`CREATE UNIQUE INDEX signing_keys_one_active ON signing_keys ((retired_at IS NULL)) WHERE retired_at IS NULL`.execute(
    db,
  )
}

// biome-ignore lint/suspicious/noExplicitAny: see up()
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('signing_keys_one_active').ifExists().execute()
}
