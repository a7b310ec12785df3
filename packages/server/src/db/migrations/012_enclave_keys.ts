import type { Kysely } from 'kysely'

// Tracker issue 15 (1): key routes answer only to the enclave, with a proof
// signed by the enclave's device key (sessions/enclave-proof.ts). Portable
// types only (see 001).
// biome-ignore lint/suspicious/noExplicitAny: migrations must not depend on the current table types (Kysely guidance)
export async function up(db: Kysely<any>): Promise<void> {
  // The RFC 7638 thumbprint of the device key a session was bound to at
  // login; null = unbound, and then every key route refuses the session.
  // Set once, on the new session only (sessions/enclave-key.ts).
  await db.schema.alterTable('sessions').addColumn('enclave_jkt', 'text').execute()

  await db.schema
    .createTable('enclave_proof_jtis')
    // SHA-256 of `${jkt}.${jti}`: the primary key makes the second use of a
    // proof (even a concurrent one, on another node) fail.
    .addColumn('jti_hash', 'text', (c) => c.primaryKey())
    // Past this, the proof's `iat` is outside the window anyway.
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .execute()
  await db.schema
    .createIndex('enclave_proof_jtis_expires_at')
    .on('enclave_proof_jtis')
    .column('expires_at')
    .execute()
}

// biome-ignore lint/suspicious/noExplicitAny: see up()
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('enclave_proof_jtis').ifExists().execute()
  await db.schema.alterTable('sessions').dropColumn('enclave_jkt').execute()
}
