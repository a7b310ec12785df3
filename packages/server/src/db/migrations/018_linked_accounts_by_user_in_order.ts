import type { Kysely } from 'kysely'

// Tracker issue 20 (speed): every login and refresh reads the user's linked
// accounts oldest first (users/statements.ts linkedAccountsOfUser: by user,
// ordered by created_at, id). With an index on user_id alone the rows were
// found by index and then sorted; this index returns them in order. It
// serves the lookups by user_id alone as well, so it replaces that index.
// biome-ignore lint/suspicious/noExplicitAny: migrations must not depend on the current table types (Kysely guidance)
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createIndex('linked_accounts_user_id_created_at_id')
    .on('linked_accounts')
    .columns(['user_id', 'created_at', 'id'])
    .execute()
  await db.schema.dropIndex('linked_accounts_user_id').execute()
}

// biome-ignore lint/suspicious/noExplicitAny: see up()
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema
    .createIndex('linked_accounts_user_id')
    .on('linked_accounts')
    .column('user_id')
    .execute()
  await db.schema.dropIndex('linked_accounts_user_id_created_at_id').execute()
}
