import { createPrivateKey, type KeyObject } from 'node:crypto'
import { type CryptoKey, exportJWK, generateKeyPair, importJWK, type JWK } from 'jose'
import type { Kysely } from 'kysely'
import type { SecretBox } from '../crypto/secrets.ts'
import { isUniqueViolation } from '../db/connect.ts'
import type { Database } from '../db/types.ts'
import { newId } from '../ids.ts'

export interface PublicJwk {
  kty: string
  crv: string
  x: string
  y: string
  kid: string
  alg: 'ES256'
  use: 'sig'
}

/** How long the store trusts its cached view of the keys table (rotation on another node shows within this). */
const RELOAD_MS = 60_000

interface LoadedKey {
  kid: string
  publicJwk: PublicJwk
  createdAt: number
  retiredAt: number | null
  publicKey: CryptoKey
}

/**
 * ES256 signing keys: generated on first start, private halves sealed with
 * the master key (purpose `signing-keys`, AAD = kid). Imported keys are
 * cached, so signing and verifying never re-import per request.
 */
export class KeyStore {
  #keys: LoadedKey[] = []
  #signing: { kid: string; key: KeyObject } | null = null
  #loadedAt = Number.NEGATIVE_INFINITY
  #loading: Promise<void> | null = null

  constructor(
    private readonly db: Kysely<Database>,
    private readonly secrets: SecretBox,
    private readonly now: () => number,
    /** Retired keys stay in the JWKS this long (the longest token lifetime). */
    private readonly retainRetiredMs: number,
  ) {}

  /**
   * Makes sure an active key exists and loads the keys. Nodes starting
   * together on a fresh database may both find none: at most one key is
   * active (migration 014), the other node's insert collides and it loads
   * the winner's key.
   */
  async init(): Promise<void> {
    const active = await this.db
      .selectFrom('signing_keys')
      .select('kid')
      .where('retired_at', 'is', null)
      .executeTakeFirst()
    if (!active)
      await this.#generate(this.db).catch((error: unknown) => {
        if (!isUniqueViolation(error)) throw error
      })
    await this.#reload()
  }

  /** Adds a new active key and retires the others (they stay published until their tokens expire). */
  async rotate(): Promise<string> {
    const now = this.now()
    // One transaction: the old key retired before the new one is active (one active key at a time).
    const kid = await this.db.transaction().execute(async (tx) => {
      await tx
        .updateTable('signing_keys')
        .set({ retired_at: now })
        .where('retired_at', 'is', null)
        .execute()
      return this.#generate(tx)
    })
    await this.#reload()
    return kid
  }

  async signingKey(): Promise<{ kid: string; key: KeyObject }> {
    await this.#fresh()
    if (!this.#signing) {
      await this.init()
      if (!this.#signing) throw new Error('No active signing key')
    }
    return this.#signing
  }

  /** Public key for a kid; an unknown kid triggers one reload (a key made on another node). */
  async verificationKey(kid: string | undefined): Promise<CryptoKey | undefined> {
    if (!kid) return undefined
    await this.#fresh()
    let key = this.#find(kid)
    if (!key && this.now() - this.#loadedAt > 1_000) {
      await this.#reload()
      key = this.#find(kid)
    }
    return key?.publicKey
  }

  /** The published key set: active keys and keys retired less than a token lifetime ago. */
  async jwks(): Promise<{ keys: PublicJwk[] }> {
    await this.#fresh()
    const cutoff = this.now() - this.retainRetiredMs
    return {
      keys: this.#keys
        .filter((k) => k.retiredAt === null || k.retiredAt > cutoff)
        .map((k) => k.publicJwk),
    }
  }

  #find(kid: string): LoadedKey | undefined {
    const cutoff = this.now() - this.retainRetiredMs
    return this.#keys.find((k) => k.kid === kid && (k.retiredAt === null || k.retiredAt > cutoff))
  }

  async #fresh(): Promise<void> {
    if (this.now() - this.#loadedAt > RELOAD_MS || this.#loadedAt > this.now()) await this.#reload()
  }

  #reload(): Promise<void> {
    this.#loading ??= this.#load().finally(() => {
      this.#loading = null
    })
    return this.#loading
  }

  async #load(): Promise<void> {
    const rows = await this.db
      .selectFrom('signing_keys')
      .selectAll()
      .orderBy('created_at', 'desc')
      .execute()
    const keys: LoadedKey[] = []
    for (const row of rows) {
      const cached = this.#keys.find((k) => k.kid === row.kid)
      const publicJwk = JSON.parse(row.public_jwk) as PublicJwk
      keys.push({
        kid: row.kid,
        publicJwk,
        createdAt: Number(row.created_at),
        retiredAt: row.retired_at === null ? null : Number(row.retired_at),
        publicKey: cached?.publicKey ?? ((await importJWK(publicJwk as JWK, 'ES256')) as CryptoKey),
      })
    }
    const active = rows.find((r) => r.retired_at === null)
    if (active && this.#signing?.kid !== active.kid) {
      const jwk = JSON.parse(
        this.secrets.decrypt('signing-keys', active.kid, active.private_jwk).toString('utf8'),
      ) as JWK
      // A Node KeyObject: signing goes through node:crypto synchronously (see tokens.ts).
      this.#signing = {
        kid: active.kid,
        key: createPrivateKey({ key: jwk as import('node:crypto').JsonWebKey, format: 'jwk' }),
      }
    }
    if (!active) this.#signing = null
    this.#keys = keys
    this.#loadedAt = this.now()
  }

  async #generate(db: Kysely<Database>): Promise<string> {
    const kid = newId()
    const { privateKey, publicKey } = await generateKeyPair('ES256', { extractable: true })
    const privateJwk = await exportJWK(privateKey)
    const { kty, crv, x, y } = await exportJWK(publicKey)
    if (!kty || !crv || !x || !y) throw new Error('Could not export the public key')
    const publicJwk: PublicJwk = { kty, crv, x, y, kid, alg: 'ES256', use: 'sig' }
    await db
      .insertInto('signing_keys')
      .values({
        kid,
        private_jwk: this.secrets.encrypt('signing-keys', kid, JSON.stringify(privateJwk)),
        public_jwk: JSON.stringify(publicJwk),
        created_at: this.now(),
        retired_at: null,
      })
      .execute()
    return kid
  }
}

/**
 * Adds a new active signing key and retires the current one, which stays in
 * the JWKS until the tokens it signed have expired (`latchkey keys rotate`).
 */
export async function rotateSigningKey(
  db: Kysely<Database>,
  secrets: SecretBox,
  options: { now?: () => number; retainRetiredMs?: number } = {},
): Promise<string> {
  const store = new KeyStore(
    db,
    secrets,
    options.now ?? Date.now,
    options.retainRetiredMs ?? 65 * 60_000,
  )
  return store.rotate()
}
