import type { Kysely } from 'kysely'

// Cross-app login and transact (spec 03 §7; docs/cross-app.md). Codes a
// provider app's user hands a requester app (single use, 2 minutes, bound to
// both apps, the user, the requester's origin and a PKCE challenge), and the
// transact tokens a requester keeps afterwards. Both are stored only as
// keyed hashes; in the database so that any server node serves any step.
// biome-ignore lint/suspicious/noExplicitAny: migrations must not depend on the current table types (Kysely guidance)
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('cross_app_codes')
    .addColumn('code_hash', 'text', (c) => c.primaryKey())
    .addColumn('provider_app_id', 'text', (c) =>
      c.notNull().references('apps.id').onDelete('cascade'),
    )
    .addColumn('requester_app_id', 'text', (c) =>
      c.notNull().references('apps.id').onDelete('cascade'),
    )
    .addColumn('provider_user_id', 'text', (c) =>
      c.notNull().references('users.id').onDelete('cascade'),
    )
    .addColumn('origin', 'text', (c) => c.notNull())
    .addColumn('code_challenge', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .addColumn('used_at', 'bigint')
    .execute()
  await db.schema
    .createIndex('cross_app_codes_expiry')
    .on('cross_app_codes')
    .column('expires_at')
    .execute()
  await db.schema
    .createTable('cross_app_tokens')
    .addColumn('token_hash', 'text', (c) => c.primaryKey())
    .addColumn('provider_app_id', 'text', (c) =>
      c.notNull().references('apps.id').onDelete('cascade'),
    )
    .addColumn('requester_app_id', 'text', (c) =>
      c.notNull().references('apps.id').onDelete('cascade'),
    )
    .addColumn('provider_user_id', 'text', (c) =>
      c.notNull().references('users.id').onDelete('cascade'),
    )
    .addColumn('requester_user_id', 'text', (c) =>
      c.notNull().references('users.id').onDelete('cascade'),
    )
    // 1 when the provider shares read-only (copied when the token is made).
    .addColumn('read_only', 'integer', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .execute()
  await db.schema
    .createIndex('cross_app_tokens_users')
    .on('cross_app_tokens')
    .columns(['requester_user_id', 'provider_app_id'])
    .execute()
}

// biome-ignore lint/suspicious/noExplicitAny: see up()
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('cross_app_tokens').ifExists().execute()
  await db.schema.dropTable('cross_app_codes').ifExists().execute()
}
