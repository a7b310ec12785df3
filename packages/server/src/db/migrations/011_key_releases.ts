import type { Kysely } from 'kysely'

// Tracker issue 15 (8): every release of key material (the auth share, the
// recovery material) is recorded before it is returned (wallets/key-releases.ts).
// No foreign key to sessions: the record outlives the session it went to (the
// purge deletes ended sessions long before the 90-day retention ends). Deleting
// the user deletes their records. Portable types only (see 001).
// biome-ignore lint/suspicious/noExplicitAny: migrations must not depend on the current table types (Kysely guidance)
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('key_releases')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('app_id', 'text', (c) => c.notNull().references('apps.id').onDelete('cascade'))
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('entropy_id', 'text', (c) => c.notNull())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('session_id', 'text', (c) => c.notNull())
    .addColumn('enclave_key_thumbprint', 'text')
    .addColumn('ip', 'text')
    .addColumn('user_agent', 'text')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute()
  // The user's activity, newest first (and its cursor): one index range.
  await db.schema
    .createIndex('key_releases_user_created')
    .on('key_releases')
    .columns(['user_id', 'created_at', 'id'])
    .execute()
  // The retention purge.
  await db.schema
    .createIndex('key_releases_created_at')
    .on('key_releases')
    .column('created_at')
    .execute()
}

// biome-ignore lint/suspicious/noExplicitAny: see up()
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('key_releases').ifExists().execute()
}
