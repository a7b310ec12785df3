import type { Kysely } from 'kysely'

// Tracker issue 22 (webhooks, docs: webhooks): an app's webhook endpoint, and
// the outbox of events to deliver to it. An event's outbox row is written in
// the transaction that writes the event's own rows, so a committed sign-up
// always has its webhook and a rolled-back one never does; workers on every
// node claim due rows with a lease (webhooks/claim.ts). Portable types only (see 001).
// biome-ignore lint/suspicious/noExplicitAny: migrations must not depend on the current table types (Kysely guidance)
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('webhook_endpoints')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('app_id', 'text', (c) => c.notNull().references('apps.id').onDelete('cascade'))
    .addColumn('url', 'text', (c) => c.notNull())
    .addColumn('events', 'text', (c) => c.notNull())
    .addColumn('enabled', 'integer', (c) => c.notNull())
    .addColumn('secret', 'text', (c) => c.notNull())
    .addColumn('previous_secret', 'text')
    .addColumn('previous_secret_expires_at', 'bigint')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute()
  // One endpoint per app for now; the outbox names the endpoint, so more can come.
  await db.schema
    .createIndex('webhook_endpoints_app')
    .on('webhook_endpoints')
    .column('app_id')
    .unique()
    .execute()
  await db.schema
    .createTable('webhook_outbox')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('endpoint_id', 'text', (c) =>
      c.notNull().references('webhook_endpoints.id').onDelete('cascade'),
    )
    .addColumn('app_id', 'text', (c) => c.notNull())
    .addColumn('event_type', 'text', (c) => c.notNull())
    .addColumn('payload', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('attempts', 'integer', (c) => c.notNull())
    .addColumn('next_attempt_at', 'bigint', (c) => c.notNull())
    .addColumn('lease_token', 'text')
    .addColumn('lease_until', 'bigint')
    .addColumn('last_status', 'integer')
    .addColumn('last_error', 'text')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('finished_at', 'bigint')
    .execute()
  // The workers' due rows: pending, oldest due first.
  await db.schema
    .createIndex('webhook_outbox_due')
    .on('webhook_outbox')
    .columns(['status', 'next_attempt_at'])
    .execute()
  // The endpoint's deliveries (CLI), and the cascade on its deletion.
  await db.schema
    .createIndex('webhook_outbox_endpoint')
    .on('webhook_outbox')
    .columns(['endpoint_id', 'created_at'])
    .execute()
}

// biome-ignore lint/suspicious/noExplicitAny: see up()
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('webhook_outbox').ifExists().execute()
  await db.schema.dropTable('webhook_endpoints').ifExists().execute()
}
