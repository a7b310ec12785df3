import { randomBytes, scrypt, timingSafeEqual } from 'node:crypto'
import type { Kysely } from 'kysely'
import { affected } from '../db/connect.ts'
import type { Database } from '../db/types.ts'
import { newId, newSecret } from '../ids.ts'

// Admin credentials of the console (migration 022, docs/console.md): made by
// `latchkey admin create`, shown once, kept only as a salted scrypt hash. The
// token names its credential (`lk_admin_<id>.<secret>`), so a sign-in hashes
// once, against one row, instead of trying every admin's salt.

/** Every admin token starts with it: secret scanners and people can tell what leaked. */
export const ADMIN_TOKEN_PREFIX = 'lk_admin_'

/** scrypt cost (RFC 7914 §2): N = 2^15, r = 8, p = 1, 32 MiB a hash; 64-byte key. */
const SCRYPT = { N: 2 ** 15, r: 8, p: 1, keyLength: 64 } as const
const MAX_MEM = 64 * 1024 * 1024

/** An admin credential as `admin list` shows it: never the token, nor its hash. */
export interface AdminInfo {
  id: string
  name: string
  createdAt: number
  lastUsedAt: number | null
  revokedAt: number | null
}

export interface CreatedAdmin {
  id: string
  name: string
  /** Shown once; only its scrypt hash is stored. */
  token: string
  createdAt: number
}

function scryptHash(secret: string, salt: Buffer, N: number, r: number, p: number) {
  return new Promise<Buffer>((resolve, reject) =>
    scrypt(secret, salt, SCRYPT.keyLength, { N, r, p, maxmem: MAX_MEM }, (error, key) =>
      error ? reject(error) : resolve(key),
    ),
  )
}

async function hashSecret(secret: string): Promise<string> {
  const salt = randomBytes(16)
  const { N, r, p } = SCRYPT
  const key = await scryptHash(secret, salt, N, r, p)
  return ['scrypt', N, r, p, salt.toString('base64url'), key.toString('base64url')].join('$')
}

async function secretMatches(secret: string, stored: string): Promise<boolean> {
  const [kind, N, r, p, salt, hash] = stored.split('$')
  if (kind !== 'scrypt' || !salt || !hash) return false
  const expected = Buffer.from(hash, 'base64url')
  const key = await scryptHash(
    secret,
    Buffer.from(salt, 'base64url'),
    +(N ?? 0),
    +(r ?? 0),
    +(p ?? 0),
  )
  return key.length === expected.length && timingSafeEqual(key, expected)
}

/** Hashed against when the token names no credential (it never matches: the key is all zero). */
const UNKNOWN_ADMIN_HASH = [
  'scrypt',
  SCRYPT.N,
  SCRYPT.r,
  SCRYPT.p,
  'AAAAAAAAAAAAAAAAAAAAAA',
  'A'.repeat(86),
].join('$')

/** `{ id, secret }` of a token in the `lk_admin_<id>.<secret>` form, or null. */
function parseToken(token: string): { id: string; secret: string } | null {
  if (!token.startsWith(ADMIN_TOKEN_PREFIX)) return null
  const rest = token.slice(ADMIN_TOKEN_PREFIX.length)
  const dot = rest.indexOf('.')
  if (dot <= 0 || dot === rest.length - 1) return null
  return { id: rest.slice(0, dot), secret: rest.slice(dot + 1) }
}

/**
 * Makes an admin credential; the token is returned once and stored only hashed.
 *
 * @example
 * const { id, token } = await createAdmin(db, 'alice')
 */
export async function createAdmin(
  db: Kysely<Database>,
  name: string,
  now = Date.now(),
): Promise<CreatedAdmin> {
  const trimmed = name.trim()
  if (!trimmed) throw new Error('An admin needs a name')
  const id = newId()
  const token = `${ADMIN_TOKEN_PREFIX}${id}.${newSecret()}`
  const secret_hash = await hashSecret(token)
  await db
    .insertInto('admin_credentials')
    .values({ id, name: trimmed, secret_hash, created_at: now })
    .execute()
  return { id, name: trimmed, token, createdAt: now }
}

/** Every admin credential, oldest first, revoked ones included. */
export async function listAdmins(db: Kysely<Database>): Promise<AdminInfo[]> {
  const rows = await db
    .selectFrom('admin_credentials')
    .select(['id', 'name', 'created_at', 'last_used_at', 'revoked_at'])
    .orderBy('created_at')
    .orderBy('id')
    .execute()
  const time = (value: number | null) => (value === null ? null : Number(value))
  return rows.map((row) => ({
    id: row.id,
    name: row.name,
    createdAt: Number(row.created_at),
    lastUsedAt: time(row.last_used_at),
    revokedAt: time(row.revoked_at),
  }))
}

/**
 * Revokes an admin credential and ends its console sessions at once. False
 * when there is no such live credential.
 */
export async function revokeAdmin(
  db: Kysely<Database>,
  id: string,
  now = Date.now(),
): Promise<boolean> {
  return db.transaction().execute(async (trx) => {
    const result = await trx
      .updateTable('admin_credentials')
      .set({ revoked_at: now })
      .where('id', '=', id)
      .where('revoked_at', 'is', null)
      .executeTakeFirst()
    await trx.deleteFrom('console_sessions').where('admin_id', '=', id).execute()
    return affected(result) === 1
  })
}

/**
 * The live admin credential `token` is, or null (malformed, unknown, wrong,
 * revoked). Records the use.
 */
export async function verifyAdminToken(
  db: Kysely<Database>,
  token: string,
  now: number,
): Promise<{ id: string; name: string } | null> {
  const parsed = parseToken(token)
  if (!parsed) return null
  const row = await db
    .selectFrom('admin_credentials')
    .select(['id', 'name', 'secret_hash', 'revoked_at'])
    .where('id', '=', parsed.id)
    .executeTakeFirst()
  // An unknown id costs a hash too: the answer's timing does not tell which ids exist.
  const matches = await secretMatches(token, row?.secret_hash ?? UNKNOWN_ADMIN_HASH)
  if (!row || !matches || row.revoked_at !== null) return null
  await db
    .updateTable('admin_credentials')
    .set({ last_used_at: now })
    .where('id', '=', row.id)
    .execute()
  return { id: row.id, name: row.name }
}
