import { type Kysely, PostgresAdapter } from 'kysely'

// Portable types only (SQLite and Postgres): text, integer, bigint.
// biome-ignore lint/suspicious/noExplicitAny: migrations must not depend on the current table types (Kysely guidance)
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('apps')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('secret_hash', 'text', (c) => c.notNull())
    .addColumn('allowed_origins', 'text', (c) => c.notNull())
    .addColumn('settings', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute()

  await db.schema
    .createTable('users')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('app_id', 'text', (c) => c.notNull().references('apps.id'))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('has_accepted_terms', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('is_guest', 'integer', (c) => c.notNull().defaultTo(0))
    .execute()
  await db.schema.createIndex('users_app_id').on('users').column('app_id').execute()

  await db.schema
    .createTable('linked_accounts')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('app_id', 'text', (c) => c.notNull())
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('identifier', 'text', (c) => c.notNull())
    .addColumn('data', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('first_verified_at', 'bigint', (c) => c.notNull())
    .addColumn('latest_verified_at', 'bigint', (c) => c.notNull())
    .addUniqueConstraint('linked_accounts_identity', ['app_id', 'type', 'identifier'])
    .execute()
  await db.schema
    .createIndex('linked_accounts_user_id')
    .on('linked_accounts')
    .column('user_id')
    .execute()

  await db.schema
    .createTable('otp_codes')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('app_id', 'text', (c) => c.notNull())
    .addColumn('channel', 'text', (c) => c.notNull())
    .addColumn('identifier', 'text', (c) => c.notNull())
    .addColumn('code_hash', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('consumed_at', 'bigint')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute()
  await db.schema
    .createIndex('otp_codes_lookup')
    .on('otp_codes')
    .columns(['app_id', 'channel', 'identifier', 'created_at'])
    .execute()
  await db.schema.createIndex('otp_codes_expires_at').on('otp_codes').column('expires_at').execute()

  await db.schema
    .createTable('sessions')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('app_id', 'text', (c) => c.notNull())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('last_used_at', 'bigint', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .addColumn('revoked_at', 'bigint')
    .execute()
  await db.schema.createIndex('sessions_user_id').on('sessions').column('user_id').execute()

  await db.schema
    .createTable('refresh_tokens')
    .addColumn('token_hash', 'text', (c) => c.primaryKey())
    .addColumn('session_id', 'text', (c) =>
      c.notNull().references('sessions.id').onDelete('cascade'),
    )
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('rotated_at', 'bigint')
    .addColumn('replaced_by', 'text')
    .execute()
  await db.schema
    .createIndex('refresh_tokens_session_id')
    .on('refresh_tokens')
    .column('session_id')
    .execute()

  await db.schema
    .createTable('signing_keys')
    .addColumn('kid', 'text', (c) => c.primaryKey())
    .addColumn('private_jwk', 'text', (c) => c.notNull())
    .addColumn('public_jwk', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('retired_at', 'bigint')
    .execute()

  // Serial ids differ by dialect; this is the only non-portable column.
  const postgres = db.getExecutor().adapter instanceof PostgresAdapter
  await db.schema
    .createTable('dev_mailbox')
    .addColumn('id', postgres ? 'bigserial' : 'integer', (c) =>
      postgres ? c.primaryKey() : c.primaryKey().autoIncrement(),
    )
    .addColumn('app_id', 'text')
    .addColumn('to', 'text', (c) => c.notNull())
    .addColumn('subject', 'text', (c) => c.notNull())
    .addColumn('text', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute()
  await db.schema.createIndex('dev_mailbox_to').on('dev_mailbox').columns(['to', 'id']).execute()

  await db.schema
    .createTable('analytics_events')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('app_id', 'text', (c) => c.notNull())
    .addColumn('event_name', 'text', (c) => c.notNull())
    .addColumn('client_id', 'text')
    .addColumn('payload', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute()
  await db.schema
    .createIndex('analytics_events_app_created')
    .on('analytics_events')
    .columns(['app_id', 'created_at'])
    .execute()
}

// biome-ignore lint/suspicious/noExplicitAny: see up()
export async function down(db: Kysely<any>): Promise<void> {
  for (const table of [
    'analytics_events',
    'dev_mailbox',
    'signing_keys',
    'refresh_tokens',
    'sessions',
    'otp_codes',
    'linked_accounts',
    'users',
    'apps',
  ]) {
    await db.schema.dropTable(table).ifExists().execute()
  }
}
