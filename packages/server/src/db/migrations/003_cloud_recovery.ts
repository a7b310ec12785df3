import type { Kysely } from 'kysely'

// Cloud-drive recovery (docs/security.md "Cloud recovery"): per-app provider
// credentials (OAuth client of Google, CloudKit container and API token),
// the OAuth states of the consent redirects, and the id of the cloud-held
// recovery key of a wallet secret. Portable types only (see 001).
// biome-ignore lint/suspicious/noExplicitAny: migrations must not depend on the current table types (Kysely guidance)
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('app_provider_credentials')
    .addColumn('app_id', 'text', (c) => c.notNull().references('apps.id').onDelete('cascade'))
    .addColumn('provider', 'text', (c) => c.notNull())
    .addColumn('client_id', 'text')
    // SecretBox output (purpose provider-credentials), never plaintext.
    .addColumn('client_secret', 'text')
    .addColumn('settings', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('app_provider_credentials_pk', ['app_id', 'provider'])
    .execute()

  await db.schema
    .createTable('recovery_oauth_states')
    .addColumn('state_hash', 'text', (c) => c.primaryKey())
    .addColumn('app_id', 'text', (c) => c.notNull())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('provider', 'text', (c) => c.notNull())
    .addColumn('redirect_to', 'text', (c) => c.notNull())
    .addColumn('code_challenge', 'text')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .addColumn('used_at', 'bigint')
    .execute()
  await db.schema
    .createIndex('recovery_oauth_states_user_id')
    .on('recovery_oauth_states')
    .column('user_id')
    .execute()
  await db.schema
    .createIndex('recovery_oauth_states_expires_at')
    .on('recovery_oauth_states')
    .column('expires_at')
    .execute()

  await db.schema.alterTable('wallet_secrets').addColumn('recovery_key_id', 'text').execute()
}

// biome-ignore lint/suspicious/noExplicitAny: see up()
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('wallet_secrets').dropColumn('recovery_key_id').execute()
  await db.schema.dropTable('recovery_oauth_states').ifExists().execute()
  await db.schema.dropTable('app_provider_credentials').ifExists().execute()
}
