import type { Kysely } from 'kysely'

// Tracker issue 23: the admin console at /console (console/, docs/console.md).
// Admin credentials are made by `latchkey admin create` and kept only as a
// salted scrypt hash; a revoked one stays listed. Console sessions are opaque
// cookie values kept only as their SHA-256, ended after 12 h without use.
// Portable types only (001).
// biome-ignore lint/suspicious/noExplicitAny: migrations must not depend on the current table types (Kysely guidance)
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('admin_credentials')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('name', 'text', (c) => c.notNull())
    // `scrypt$N$r$p$salt$hash` (base64url salt and hash).
    .addColumn('secret_hash', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('last_used_at', 'bigint')
    .addColumn('revoked_at', 'bigint')
    .execute()
  await db.schema
    .createTable('console_sessions')
    // SHA-256 (base64url) of the cookie value.
    .addColumn('id_hash', 'text', (c) => c.primaryKey())
    .addColumn('admin_id', 'text', (c) =>
      c.notNull().references('admin_credentials.id').onDelete('cascade'),
    )
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('last_used_at', 'bigint', (c) => c.notNull())
    .execute()
  await db.schema
    .createIndex('console_sessions_admin_id')
    .on('console_sessions')
    .column('admin_id')
    .execute()
}

// biome-ignore lint/suspicious/noExplicitAny: see up()
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('console_sessions').ifExists().execute()
  await db.schema.dropTable('admin_credentials').ifExists().execute()
}
