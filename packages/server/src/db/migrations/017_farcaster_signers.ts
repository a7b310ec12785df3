import type { Kysely } from 'kysely'

// Farcaster signers (spec 03 §2, §7; docs/farcaster-signer.md): one row per
// ed25519 key the enclave made for a user of an app, with the Farcaster
// signed key request that asks the user to add it. In the database, not in a
// node's memory: any server node answers the status polls.
// biome-ignore lint/suspicious/noExplicitAny: migrations must not depend on the current table types (Kysely guidance)
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('farcaster_signers')
    .addColumn('app_id', 'text', (c) => c.notNull().references('apps.id').onDelete('cascade'))
    // 0x-prefixed lowercase hex of the 32-byte ed25519 public key.
    .addColumn('public_key', 'text', (c) => c.notNull())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    // Farcaster's token for the signed key request (the approval deep link carries it too).
    .addColumn('request_token', 'text', (c) => c.notNull())
    .addColumn('approval_url', 'text', (c) => c.notNull())
    // pending_approval | approved | revoked
    .addColumn('status', 'text', (c) => c.notNull())
    // The fid that approved, once approved.
    .addColumn('fid', 'bigint')
    // Unix seconds: the SignedKeyRequest's deadline.
    .addColumn('deadline', 'bigint', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('farcaster_signers_pk', ['app_id', 'public_key'])
    .execute()
  await db.schema
    .createIndex('farcaster_signers_user')
    .on('farcaster_signers')
    .columns(['user_id', 'app_id'])
    .execute()
}

// biome-ignore lint/suspicious/noExplicitAny: see up()
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('farcaster_signers').ifExists().execute()
}
