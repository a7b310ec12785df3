import type { Kysely } from 'kysely'

// Sponsored gas (issue 24, docs/smart-wallets.md): the user operations the
// server's VerifyingPaymaster signed for, so per-user daily caps can count
// them (smart-wallets/sponsored-operations.ts). Purged after a retention
// (maintenance/purge.ts). Portable types only (001).
// biome-ignore lint/suspicious/noExplicitAny: migrations must not depend on the current table types (Kysely guidance)
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('sponsored_operations')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('app_id', 'text', (c) => c.notNull().references('apps.id').onDelete('cascade'))
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('chain_id', 'bigint', (c) => c.notNull())
    // The smart account, lowercase.
    .addColumn('sender', 'text', (c) => c.notNull())
    // Decimal: the nonce (key and sequence) and the most the operation can cost, in wei.
    .addColumn('nonce', 'text', (c) => c.notNull())
    .addColumn('max_cost', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    // One row per operation: signing it again replaces the row.
    .addUniqueConstraint('sponsored_operations_operation', [
      'app_id',
      'chain_id',
      'sender',
      'nonce',
    ])
    .execute()
  await db.schema
    .createIndex('sponsored_operations_user')
    .on('sponsored_operations')
    .columns(['app_id', 'user_id', 'created_at'])
    .execute()
  await db.schema
    .createIndex('sponsored_operations_created')
    .on('sponsored_operations')
    .column('created_at')
    .execute()
}

// biome-ignore lint/suspicious/noExplicitAny: see up()
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('sponsored_operations').ifExists().execute()
}
