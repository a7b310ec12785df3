import { randomBytes } from 'node:crypto'
import type { Kysely } from 'kysely'
import { safeEqual } from '../crypto/secrets.ts'
import { affected } from '../db/connect.ts'
import type { Database } from '../db/types.ts'
import { newId, sha256 } from '../ids.ts'

// App secrets (migration 019, docs/server-api.md): what an app backend
// authenticates with on the server-to-server routes (`auth: 'app'`,
// apps/app-secrets-auth.ts). 256 random bits behind a recognisable prefix,
// stored only as SHA-256: a preimage of a 256-bit random value is out of
// reach, so a slow password hash would buy nothing.

/** Every secret made here starts with it: secret scanners and people can tell what leaked. */
export const APP_SECRET_PREFIX = 'lk_sk_'

/** `last_used_at` is written at most this often per secret (one write a minute, not one a request). */
const LAST_USED_RESOLUTION_MS = 60_000

/** An app secret as the CLI lists it: never the secret, nor its hash. */
export interface AppSecretInfo {
  id: string
  createdAt: number
  lastUsedAt: number | null
  revokedAt: number | null
}

export interface CreatedAppSecret {
  id: string
  /** Shown once; only its SHA-256 is stored. */
  secret: string
  createdAt: number
}

/**
 * The secret `apps create` printed lives in `apps.secret_hash` (apps/service.ts);
 * it is the app's first secret here too, so it can be listed and revoked like
 * the others. Migration 019 copies it for apps that existed then; this does it
 * for apps created since (idempotent: the hash is unique, and a revoked copy
 * stays revoked).
 */
async function adoptCreationSecret(db: Kysely<Database>, appId: string): Promise<boolean> {
  const app = await db
    .selectFrom('apps')
    .select(['secret_hash', 'created_at'])
    .where('id', '=', appId)
    .executeTakeFirst()
  if (!app) return false
  await db
    .insertInto('app_secrets')
    .values({
      id: newId(),
      app_id: appId,
      secret_hash: app.secret_hash,
      created_at: Number(app.created_at),
    })
    .onConflict((oc) => oc.column('secret_hash').doNothing())
    .execute()
  return true
}

/**
 * Makes a new secret for the app (rotation: create, deploy, then revoke the
 * old one). Throws for an unknown app.
 *
 * @example
 * const { id, secret } = await createAppSecret(db, appId)
 */
export async function createAppSecret(
  db: Kysely<Database>,
  appId: string,
  now = Date.now(),
): Promise<CreatedAppSecret> {
  if (!(await adoptCreationSecret(db, appId))) throw new Error(`No app ${appId}`)
  const secret = `${APP_SECRET_PREFIX}${randomBytes(32).toString('base64url')}`
  const id = newId()
  await db
    .insertInto('app_secrets')
    .values({ id, app_id: appId, secret_hash: sha256(secret), created_at: now })
    .execute()
  return { id, secret, createdAt: now }
}

/** The app's secrets, oldest first, revoked ones included. Throws for an unknown app. */
export async function listAppSecrets(
  db: Kysely<Database>,
  appId: string,
): Promise<AppSecretInfo[]> {
  if (!(await adoptCreationSecret(db, appId))) throw new Error(`No app ${appId}`)
  const rows = await db
    .selectFrom('app_secrets')
    .select(['id', 'created_at', 'last_used_at', 'revoked_at'])
    .where('app_id', '=', appId)
    .orderBy('created_at')
    .orderBy('id')
    .execute()
  const time = (value: number | null) => (value === null ? null : Number(value))
  return rows.map((row) => ({
    id: row.id,
    createdAt: Number(row.created_at),
    lastUsedAt: time(row.last_used_at),
    revokedAt: time(row.revoked_at),
  }))
}

/**
 * Revokes one of the app's secrets: from now on it is refused (401
 * INVALID_APP_SECRET). False when the app has no such live secret.
 */
export async function revokeAppSecret(
  db: Kysely<Database>,
  appId: string,
  secretId: string,
  now = Date.now(),
): Promise<boolean> {
  await adoptCreationSecret(db, appId)
  const result = await db
    .updateTable('app_secrets')
    .set({ revoked_at: now })
    .where('id', '=', secretId)
    .where('app_id', '=', appId)
    .where('revoked_at', 'is', null)
    .executeTakeFirst()
  return affected(result) === 1
}

/**
 * The id of the app's live secret that `secret` is, or null (wrong, revoked,
 * another app's). Compares the hash with every secret of the app in constant
 * time, without stopping at a match, so the answer's timing says nothing of
 * which or how many secrets the app has. Records the use (to the minute).
 */
export async function matchAppSecret(
  db: Kysely<Database>,
  appId: string,
  secret: string,
  now: number,
): Promise<string | null> {
  const hash = sha256(secret)
  let rows = await secretsOf(db, appId)
  // An app created since migration 019: its creation secret is not copied yet.
  if (rows.creationHash !== null && !rows.secrets.some((s) => s.secret_hash === rows.creationHash))
    if (await adoptCreationSecret(db, appId)) rows = await secretsOf(db, appId)
  let match: (typeof rows.secrets)[number] | null = null
  for (const row of rows.secrets) {
    const equal = safeEqual(row.secret_hash, hash)
    if (equal && row.revoked_at === null) match = row
  }
  if (!match) return null
  const lastUsed = match.last_used_at === null ? null : Number(match.last_used_at)
  if (lastUsed === null || now - lastUsed >= LAST_USED_RESOLUTION_MS)
    await db
      .updateTable('app_secrets')
      .set({ last_used_at: now })
      .where('id', '=', match.id)
      .execute()
  return match.id
}

/** The app's creation secret hash (null: no such app) and every secret row of the app. */
async function secretsOf(db: Kysely<Database>, appId: string) {
  const rows = await db
    .selectFrom('apps')
    .leftJoin('app_secrets', 'app_secrets.app_id', 'apps.id')
    .select([
      'apps.secret_hash as creation_hash',
      'app_secrets.id',
      'app_secrets.secret_hash',
      'app_secrets.last_used_at',
      'app_secrets.revoked_at',
    ])
    .where('apps.id', '=', appId)
    .execute()
  const creationHash = rows[0]?.creation_hash ?? null
  const secrets = rows.flatMap((row) =>
    row.id === null || row.secret_hash === null
      ? []
      : [
          {
            id: row.id,
            secret_hash: row.secret_hash,
            last_used_at: row.last_used_at,
            revoked_at: row.revoked_at,
          },
        ],
  )
  return { creationHash, secrets }
}
