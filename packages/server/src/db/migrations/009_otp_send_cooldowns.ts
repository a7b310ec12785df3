import type { Kysely } from 'kysely'

// Tracker issue 15 (7c): the resend cooldown is claimed by one conditional
// upsert on this row (auth/otp.ts), atomic on SQLite and Postgres alike; a
// read of otp_codes followed by an insert let concurrent sends through on
// Postgres. One row per (app, channel, identifier): when its last code went
// out. Portable types only (see 001).
// biome-ignore lint/suspicious/noExplicitAny: migrations must not depend on the current table types (Kysely guidance)
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('otp_send_cooldowns')
    .addColumn('app_id', 'text', (c) => c.notNull().references('apps.id').onDelete('cascade'))
    .addColumn('channel', 'text', (c) => c.notNull())
    .addColumn('identifier', 'text', (c) => c.notNull())
    .addColumn('sent_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('otp_send_cooldowns_pk', ['app_id', 'channel', 'identifier'])
    .execute()
  await db.schema
    .createIndex('otp_send_cooldowns_sent_at')
    .on('otp_send_cooldowns')
    .column('sent_at')
    .execute()
}

// biome-ignore lint/suspicious/noExplicitAny: see up()
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('otp_send_cooldowns').ifExists().execute()
}
