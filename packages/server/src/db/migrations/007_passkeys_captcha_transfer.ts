import { type Kysely, sql } from 'kysely'

// Issue 6: passkey challenges (docs/passkeys.md), spent captcha tokens
// (docs/captcha.md) and account-transfer offers (docs/access-control.md).
// Passkeys themselves are linked accounts (type 'passkey', identifier = the
// credential id); their public key and counter live in the account's data.
// Every row here is short-lived and single-use: `used_at` is set by one
// conditional UPDATE. Portable types only (see 001).
// biome-ignore lint/suspicious/noExplicitAny: migrations must not depend on the current table types (Kysely guidance)
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('passkey_challenges')
    // The challenge (base64url of ≥ 32 random bytes) as sent to the browser.
    .addColumn('challenge', 'text', (c) => c.primaryKey())
    .addColumn('app_id', 'text', (c) => c.notNull().references('apps.id').onDelete('cascade'))
    // 'register' (sign-up), 'authenticate' (login) or 'link'.
    .addColumn('purpose', 'text', (c) => c.notNull())
    // The signed-in user a link challenge was issued to; null otherwise.
    .addColumn('user_id', 'text', (c) => c.references('users.id').onDelete('cascade'))
    // RP ID and origin the response must name (the requesting allowed origin).
    .addColumn('rp_id', 'text', (c) => c.notNull())
    .addColumn('origin', 'text', (c) => c.notNull())
    // Register and link: the WebAuthn user handle the options carried.
    .addColumn('webauthn_user_id', 'text')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .addColumn('used_at', 'bigint')
    .execute()
  await db.schema
    .createIndex('passkey_challenges_expires_at')
    .on('passkey_challenges')
    .column('expires_at')
    .execute()

  // A credential id belongs to one user of one app (security bar 26): the
  // per-app unique index of 001 does not stop two apps racing to register
  // the same id, this partial one does.
  await sql`create unique index linked_accounts_passkey_credential on linked_accounts (identifier) where type = 'passkey'`.execute(
    db,
  )

  await db.schema
    .createTable('captcha_tokens')
    // SHA-256 (hex) of a verified captcha token: a second use is refused.
    .addColumn('token_hash', 'text', (c) => c.primaryKey())
    .addColumn('app_id', 'text', (c) => c.notNull().references('apps.id').onDelete('cascade'))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .execute()
  await db.schema
    .createIndex('captcha_tokens_expires_at')
    .on('captcha_tokens')
    .column('expires_at')
    .execute()

  await db.schema
    .createTable('account_transfers')
    // SHA-256 (hex) of the transfer nonce; the nonce itself is never stored.
    .addColumn('nonce_hash', 'text', (c) => c.primaryKey())
    .addColumn('app_id', 'text', (c) => c.notNull().references('apps.id').onDelete('cascade'))
    // The signed-in user who proved ownership while linking.
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    // The user who holds the account now (deleted by the transfer).
    .addColumn('from_user_id', 'text', (c) =>
      c.notNull().references('users.id').onDelete('cascade'),
    )
    .addColumn('account_type', 'text', (c) => c.notNull())
    .addColumn('identifier', 'text', (c) => c.notNull())
    // JSON: the account data the link proved (profile, wallet metadata…).
    .addColumn('data', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .addColumn('used_at', 'bigint')
    .execute()
  await db.schema
    .createIndex('account_transfers_expires_at')
    .on('account_transfers')
    .column('expires_at')
    .execute()
}

// biome-ignore lint/suspicious/noExplicitAny: see up()
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('account_transfers').ifExists().execute()
  await db.schema.dropTable('captcha_tokens').ifExists().execute()
  await db.schema.dropTable('passkey_challenges').ifExists().execute()
  await db.schema.dropIndex('linked_accounts_passkey_credential').ifExists().execute()
}
