import {
  type Kysely,
  type Migration,
  type MigrationProvider,
  Migrator,
  PostgresAdapter,
  sql,
} from 'kysely'
import * as m001 from './migrations/001_initial.ts'
import * as m002 from './migrations/002_wallet_secrets.ts'
import * as m003 from './migrations/003_cloud_recovery.ts'
import * as m005 from './migrations/005_oauth_login.ts'
import * as m006 from './migrations/006_wallet_logins.ts'
import * as m007 from './migrations/007_passkeys_captcha_transfer.ts'
import * as m008 from './migrations/008_refresh_successors_telegram_payloads.ts'
import * as m009 from './migrations/009_otp_send_cooldowns.ts'
import * as m011 from './migrations/011_key_releases.ts'
import * as m012 from './migrations/012_enclave_keys.ts'
import * as m013 from './migrations/013_mfa.ts'
import * as m014 from './migrations/014_one_active_signing_key.ts'
import * as m015 from './migrations/015_farcaster_channel_completions.ts'
import * as m016 from './migrations/016_webhooks.ts'
import * as m017 from './migrations/017_farcaster_signers.ts'
import * as m018 from './migrations/018_linked_accounts_by_user_in_order.ts'
import * as m019 from './migrations/019_app_secrets.ts'
import * as m020 from './migrations/020_delegated_actions.ts'
import * as m021 from './migrations/021_cross_app.ts'
import * as m022 from './migrations/022_admin.ts'
import * as m023 from './migrations/023_admin_audit.ts'
import * as m024 from './migrations/024_sponsored_operations.ts'
import type { Database } from './types.ts'

// A static list (no filesystem scan): works the same from source, bundles and tests.
const migrations: Record<string, Migration> = {
  '001_initial': m001,
  '002_wallet_secrets': m002,
  '003_cloud_recovery': m003,
  '005_oauth_login': m005,
  '006_wallet_logins': m006,
  '007_passkeys_captcha_transfer': m007,
  '008_refresh_successors_telegram_payloads': m008,
  '009_otp_send_cooldowns': m009,
  '011_key_releases': m011,
  '012_enclave_keys': m012,
  '013_mfa': m013,
  '014_one_active_signing_key': m014,
  '015_farcaster_channel_completions': m015,
  '016_webhooks': m016,
  '017_farcaster_signers': m017,
  '018_linked_accounts_by_user_in_order': m018,
  '019_app_secrets': m019,
  '020_delegated_actions': m020,
  '021_cross_app': m021,
  '022_admin': m022,
  '023_admin_audit': m023,
  '024_sponsored_operations': m024,
}

const provider: MigrationProvider = { getMigrations: async () => migrations }

/** Applies every pending migration; throws if one fails. Safe to run on every start. */
export async function migrateToLatest(db: Kysely<Database>): Promise<string[]> {
  // On Postgres, pin the migration tables to the connection's schema: Kysely's
  // existence check looks at every schema, and would be fooled by another
  // schema's tables (several instances share one database in tests).
  let migrationTableSchema: string | undefined
  if (db.getExecutor().adapter instanceof PostgresAdapter) {
    const { rows } = await sql<{ schema: string }>`select current_schema() as schema`.execute(db)
    migrationTableSchema = rows[0]?.schema
  }
  const migrator = new Migrator({
    db,
    provider,
    ...(migrationTableSchema ? { migrationTableSchema } : {}),
  })
  const { error, results } = await migrator.migrateToLatest()
  if (error) throw error instanceof Error ? error : new Error(String(error))
  return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName)
}
