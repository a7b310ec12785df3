import type { Kysely } from 'kysely'

// Tracker issue 18: MFA (docs/mfa.md). Three tables, each deleted with its
// user (foreign keys cascade, users/delete.ts). Portable types only (see 001).
// biome-ignore lint/suspicious/noExplicitAny: migrations must not depend on the current table types (Kysely guidance)
export async function up(db: Kysely<any>): Promise<void> {
  // A user's MFA methods, one row per method: a pending setup (enabled = 0,
  // until `expires_at`) or an enabled factor (enabled = 1, expires_at null).
  await db.schema
    .createTable('mfa_factors')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('app_id', 'text', (c) => c.notNull().references('apps.id').onDelete('cascade'))
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    // 'totp' | 'sms' | 'passkey'
    .addColumn('method', 'text', (c) => c.notNull())
    // TOTP: the base32 secret, sealed (purpose totp-secrets, the row as associated data).
    .addColumn('secret', 'text')
    .addColumn('enabled', 'integer', (c) => c.notNull())
    // TOTP: the last time step a code was accepted for; only later steps pass.
    .addColumn('last_used_step', 'bigint')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('enabled_at', 'bigint')
    .addColumn('expires_at', 'bigint')
    .addUniqueConstraint('mfa_factors_user_method', ['user_id', 'method'])
    .execute()
  await db.schema
    .createIndex('mfa_factors_expires_at')
    .on('mfa_factors')
    .column('expires_at')
    .execute()

  // A session's MFA verification (one row per session, renewed by each
  // verify): the session is bound to one enclave key, so this is per device.
  await db.schema
    .createTable('mfa_verifications')
    .addColumn('session_id', 'text', (c) =>
      c.primaryKey().references('sessions.id').onDelete('cascade'),
    )
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('method', 'text', (c) => c.notNull())
    .addColumn('verified_at', 'bigint', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .execute()
  await db.schema
    .createIndex('mfa_verifications_expires_at')
    .on('mfa_verifications')
    .column('expires_at')
    .execute()

  // The user's MFA code attempts in the current window, claimed by one
  // conditional upsert before a code is compared (mfa/attempts.ts).
  await db.schema
    .createTable('mfa_attempts')
    .addColumn('user_id', 'text', (c) => c.primaryKey().references('users.id').onDelete('cascade'))
    .addColumn('attempts', 'integer', (c) => c.notNull())
    // The window's end: the count (and a lock) lasts until then.
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .execute()
  await db.schema
    .createIndex('mfa_attempts_expires_at')
    .on('mfa_attempts')
    .column('expires_at')
    .execute()
}

// biome-ignore lint/suspicious/noExplicitAny: see up()
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('mfa_attempts').ifExists().execute()
  await db.schema.dropTable('mfa_verifications').ifExists().execute()
  await db.schema.dropTable('mfa_factors').ifExists().execute()
}
