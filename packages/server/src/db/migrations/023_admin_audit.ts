import type { Kysely } from 'kysely'

// Tracker issue 23, the console's second half (docs/console.md):
// - admin_audit: one row per change made in the console (who, what, on what,
//   when), listed newest first (created_at, id) on the audit page.
// - the events view reads an app's sign-ups, logins and key releases newest
//   first: one index range per source, (app_id, created_at, id).
// Portable types only (001).
// biome-ignore lint/suspicious/noExplicitAny: migrations must not depend on the current table types (Kysely guidance)
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('admin_audit')
    .addColumn('id', 'text', (c) => c.primaryKey())
    // Not a foreign key: the record outlives nothing, and credentials are never deleted.
    .addColumn('admin_id', 'text', (c) => c.notNull())
    .addColumn('action', 'text', (c) => c.notNull())
    .addColumn('app_id', 'text')
    .addColumn('target', 'text')
    // JSON object: what changed (setting keys, counts), never a value of a secret.
    .addColumn('detail', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute()
  await db.schema
    .createIndex('admin_audit_created')
    .on('admin_audit')
    .columns(['created_at', 'id'])
    .execute()
  for (const table of ['users', 'sessions', 'key_releases'])
    await db.schema
      .createIndex(`${table}_app_created`)
      .on(table)
      .columns(['app_id', 'created_at', 'id'])
      .execute()
}

// biome-ignore lint/suspicious/noExplicitAny: see up()
export async function down(db: Kysely<any>): Promise<void> {
  for (const table of ['users', 'sessions', 'key_releases'])
    await db.schema.dropIndex(`${table}_app_created`).ifExists().execute()
  await db.schema.dropTable('admin_audit').ifExists().execute()
}
