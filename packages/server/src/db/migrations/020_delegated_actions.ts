import type { Kysely } from 'kysely'

// Delegated actions (tracker issue 22, docs/delegated-actions.md): the server's
// delegation key pair (its private half sealed under the master key), the
// device shares users delegated (sealed again at rest, bound to their row),
// each app's policy, and the audit log of every server-side signature attempt.
// Portable types only (001).
// biome-ignore lint/suspicious/noExplicitAny: migrations must not depend on the current table types (Kysely guidance)
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('delegation_keys')
    // 'current': one key per database; nodes insert-or-read it (never two).
    .addColumn('slot', 'text', (c) => c.primaryKey())
    .addColumn('key_id', 'text', (c) => c.notNull().unique())
    // base64url of the uncompressed P-256 point.
    .addColumn('public_key', 'text', (c) => c.notNull())
    // The PKCS#8 private key, sealed (purpose delegation-keys).
    .addColumn('private_key', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute()
  await db.schema
    .createTable('wallet_delegations')
    .addColumn('app_id', 'text', (c) => c.notNull().references('apps.id').onDelete('cascade'))
    // Canonical address (lowercase hex, or base58).
    .addColumn('address', 'text', (c) => c.notNull())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    // The wallet's linked account (the server API's wallet id).
    .addColumn('account_id', 'text', (c) =>
      c.notNull().references('linked_accounts.id').onDelete('cascade'),
    )
    .addColumn('chain_type', 'text', (c) => c.notNull())
    .addColumn('entropy_id', 'text', (c) => c.notNull())
    // The device share, sealed (purpose delegated-shares) with AAD binding app, user, address, column.
    .addColumn('device_share', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('wallet_delegations_pk', ['app_id', 'address'])
    .execute()
  await db.schema
    .createIndex('wallet_delegations_user')
    .on('wallet_delegations')
    .columns(['user_id', 'app_id'])
    .execute()
  await db.schema
    .createTable('delegation_policies')
    .addColumn('app_id', 'text', (c) => c.primaryKey().references('apps.id').onDelete('cascade'))
    // JSON arrays (null: any): CAIP-2 chains, `to` addresses (lowercase), RPC methods.
    .addColumn('chains', 'text')
    .addColumn('contracts', 'text')
    .addColumn('methods', 'text')
    // Wei as decimal strings (null: no limit).
    .addColumn('max_value_per_tx', 'text')
    .addColumn('max_value_per_day', 'text')
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute()
  await db.schema
    .createTable('delegated_actions')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('app_id', 'text', (c) => c.notNull().references('apps.id').onDelete('cascade'))
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('address', 'text', (c) => c.notNull())
    .addColumn('chain_type', 'text', (c) => c.notNull())
    .addColumn('method', 'text', (c) => c.notNull())
    .addColumn('caip2', 'text')
    .addColumn('to_address', 'text')
    // Wei as a decimal string.
    .addColumn('value', 'text')
    // The transaction hash, or the signature's first characters.
    .addColumn('result', 'text')
    // signed | refused
    .addColumn('outcome', 'text', (c) => c.notNull())
    .addColumn('refusal_code', 'text')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute()
  await db.schema
    .createIndex('delegated_actions_user')
    .on('delegated_actions')
    .columns(['user_id', 'app_id', 'created_at'])
    .execute()
  await db.schema
    .createIndex('delegated_actions_wallet')
    .on('delegated_actions')
    .columns(['app_id', 'address', 'created_at'])
    .execute()
}

// biome-ignore lint/suspicious/noExplicitAny: see up()
export async function down(db: Kysely<any>): Promise<void> {
  for (const table of [
    'delegated_actions',
    'delegation_policies',
    'wallet_delegations',
    'delegation_keys',
  ])
    await db.schema.dropTable(table).ifExists().execute()
}
