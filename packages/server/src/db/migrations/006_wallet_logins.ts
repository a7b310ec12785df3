import type { Kysely } from 'kysely'

// Wallet logins (docs/login-wallets.md, docs/login-farcaster.md): sign-in
// nonces of SIWE and SIWS, and Farcaster relay channels. Both are short-lived
// and single-use (`used_at` is set by one conditional UPDATE, so two
// concurrent verifications of one nonce produce one session, security bar
// 17). Portable types only (see 001).
// biome-ignore lint/suspicious/noExplicitAny: migrations must not depend on the current table types (Kysely guidance)
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('sign_in_nonces')
    .addColumn('nonce', 'text', (c) => c.primaryKey())
    .addColumn('app_id', 'text', (c) => c.notNull().references('apps.id').onDelete('cascade'))
    // 'ethereum' (SIWE) or 'solana' (SIWS)
    .addColumn('chain_type', 'text', (c) => c.notNull())
    // Canonical address the nonce was issued for (lowercase hex, or base58).
    .addColumn('address', 'text', (c) => c.notNull())
    // SIWS: the sign-in input the server built (JSON); null for SIWE.
    .addColumn('sign_in_input', 'text')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .addColumn('used_at', 'bigint')
    .execute()
  await db.schema
    .createIndex('sign_in_nonces_expires_at')
    .on('sign_in_nonces')
    .column('expires_at')
    .execute()
  await db.schema
    .createTable('farcaster_channels')
    // SHA-256 of the relay's channel token (a bearer secret), hex.
    .addColumn('channel_token_hash', 'text', (c) => c.primaryKey())
    .addColumn('app_id', 'text', (c) => c.notNull().references('apps.id').onDelete('cascade'))
    .addColumn('nonce', 'text', (c) => c.notNull())
    // The SIWF message must name exactly this domain and URI.
    .addColumn('domain', 'text', (c) => c.notNull())
    .addColumn('siwe_uri', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .addColumn('used_at', 'bigint')
    .execute()
  await db.schema
    .createIndex('farcaster_channels_expires_at')
    .on('farcaster_channels')
    .column('expires_at')
    .execute()
}

// biome-ignore lint/suspicious/noExplicitAny: see up()
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('farcaster_channels').ifExists().execute()
  await db.schema.dropTable('sign_in_nonces').ifExists().execute()
}
