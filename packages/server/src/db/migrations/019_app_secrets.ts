import { randomBytes } from 'node:crypto'
import type { Kysely } from 'kysely'

// Tracker issue 22: app secrets for server-to-server calls (apps/app-secrets.ts,
// docs/server-api.md). An app has several, so it can rotate: create a new one,
// deploy it, revoke the old. Each is 256 random bits, stored only as its
// SHA-256. Revoked rows stay (revoked_at set): a revoked secret is never
// accepted again, and the list shows when it went. Portable types only (001).
// biome-ignore lint/suspicious/noExplicitAny: migrations must not depend on the current table types (Kysely guidance)
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('app_secrets')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('app_id', 'text', (c) => c.notNull().references('apps.id').onDelete('cascade'))
    // SHA-256 (base64url) of the secret; unique across apps.
    .addColumn('secret_hash', 'text', (c) => c.notNull().unique())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('last_used_at', 'bigint')
    .addColumn('revoked_at', 'bigint')
    .execute()
  await db.schema.createIndex('app_secrets_app_id').on('app_secrets').column('app_id').execute()
  // The secret `apps create` printed (apps.secret_hash) is the app's first secret.
  const apps = await db.selectFrom('apps').select(['id', 'secret_hash', 'created_at']).execute()
  for (const app of apps)
    await db
      .insertInto('app_secrets')
      .values({
        id: randomBytes(16).toString('base64url'),
        app_id: app.id,
        secret_hash: app.secret_hash,
        created_at: app.created_at,
      })
      .execute()
}

// biome-ignore lint/suspicious/noExplicitAny: see up()
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('app_secrets').ifExists().execute()
}
