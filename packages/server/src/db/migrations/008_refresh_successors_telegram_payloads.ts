import type { Kysely } from 'kysely'

// Issue 15: idempotent refresh inside the overlap window, and single-use
// Telegram login payloads. Portable types only (see 001).
// biome-ignore lint/suspicious/noExplicitAny: migrations must not depend on the current table types (Kysely guidance)
export async function up(db: Kysely<any>): Promise<void> {
  // The successor a rotated refresh token was exchanged for, AES-256-GCM
  // sealed under a key derived from the master key *and the rotated token
  // itself* (sessions/successor.ts): only a holder of the old token can get
  // it back, and only through the server. Replaying the old token inside the
  // overlap window answers with this same successor instead of a new one.
  await db.schema.alterTable('refresh_tokens').addColumn('successor', 'text').execute()

  await db.schema
    .createTable('telegram_payloads')
    // SHA-256 of a verified payload's signature: the primary key makes the
    // second use of one payload (even a concurrent one) fail.
    .addColumn('payload_hash', 'text', (c) => c.primaryKey())
    .addColumn('app_id', 'text', (c) => c.notNull().references('apps.id').onDelete('cascade'))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    // When the payload's auth_date gets too old to be accepted anyway.
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .execute()
  await db.schema
    .createIndex('telegram_payloads_expires_at')
    .on('telegram_payloads')
    .column('expires_at')
    .execute()
}

// biome-ignore lint/suspicious/noExplicitAny: see up()
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('telegram_payloads').ifExists().execute()
  await db.schema.alterTable('refresh_tokens').dropColumn('successor').execute()
}
