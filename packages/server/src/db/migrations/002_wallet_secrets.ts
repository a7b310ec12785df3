import { type Kysely, sql } from 'kysely'

// Embedded-wallet shares (docs/security.md "Embedded wallet keys"). One row per
// secret (HD entropy or imported key); its wallets are linked_accounts of type
// 'wallet'. Sealed columns hold SecretBox output (`v1.<iv>.<ct>.<tag>`).
// biome-ignore lint/suspicious/noExplicitAny: migrations must not depend on the current table types (Kysely guidance)
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('wallet_secrets')
    .addColumn('entropy_id', 'text', (c) => c.notNull())
    .addColumn('app_id', 'text', (c) => c.notNull())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('entropy_type', 'text', (c) => c.notNull())
    .addColumn('auth_share', 'text', (c) => c.notNull())
    .addColumn('recovery_method', 'text', (c) => c.notNull())
    .addColumn('recovery_ciphertext', 'text', (c) => c.notNull())
    .addColumn('recovery_key', 'text')
    .addColumn('recovery_kdf', 'text')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('wallet_secrets_pk', ['app_id', 'entropy_id'])
    .execute()
  await db.schema
    .createIndex('wallet_secrets_user_id')
    .on('wallet_secrets')
    .column('user_id')
    .execute()
  // At most one HD secret per user, held by the database even under concurrent creates.
  await db.schema
    .createIndex('wallet_secrets_one_hd_per_user')
    .on('wallet_secrets')
    .columns(['app_id', 'user_id'])
    .unique()
    .where(sql.ref('entropy_type'), '=', 'hd')
    .execute()
}

// biome-ignore lint/suspicious/noExplicitAny: see up()
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('wallet_secrets').ifExists().execute()
}
