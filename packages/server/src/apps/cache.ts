import { isValidAppId } from '@latchkey/protocol'
import type { Kysely } from 'kysely'
import type { Database } from '../db/types.ts'
import { configuredProvidersOf } from './credentials.ts'
import { type AppRecord, rowToApp } from './service.ts'

/**
 * App rows cached in memory so a request costs no DB read for its app.
 * TTL 5 s (APP_CACHE_TTL_MS): an origin, settings or provider-credentials
 * change made on another node (or by the CLI) takes effect within 5 s; one
 * made through this server (`setAppProviderCredentials`) forgets the app at
 * once. Misses are cached too, so requests with made-up app ids cannot
 * hammer the database.
 */
export const APP_CACHE_TTL_MS = 5_000
const MAX_ENTRIES = 10_000

export class AppCache {
  readonly #entries = new Map<string, { app: AppRecord | null; expiresAt: number }>()
  #origins: { set: Set<string>; expiresAt: number } | null = null

  constructor(
    private readonly db: Kysely<Database>,
    private readonly now: () => number,
    private readonly ttlMs = APP_CACHE_TTL_MS,
  ) {}

  async get(id: string): Promise<AppRecord | null> {
    // Not an app id (spec 01 §5): nothing to look up, and nothing to cache. PostgreSQL
    // refuses a NUL in a text parameter with an error (a 500 before this check).
    if (!isValidAppId(id)) return null
    const now = this.now()
    const hit = this.#entries.get(id)
    if (hit && hit.expiresAt > now) return hit.app
    const row = await this.db.selectFrom('apps').selectAll().where('id', '=', id).executeTakeFirst()
    // Which providers have credentials: the public config lists cloud recovery only with them.
    const providers = row ? await configuredProvidersOf(this.db, [row.id]) : undefined
    const app = row ? rowToApp(row, providers?.get(row.id) ?? []) : null
    if (this.#entries.size >= MAX_ENTRIES) this.#sweep(now)
    this.#entries.set(id, { app, expiresAt: now + this.ttlMs })
    return app
  }

  /** Every origin some app allows (CORS preflights carry no app id). */
  async allOrigins(): Promise<Set<string>> {
    const now = this.now()
    if (this.#origins && this.#origins.expiresAt > now) return this.#origins.set
    const rows = await this.db.selectFrom('apps').select('allowed_origins').execute()
    const set = new Set(rows.flatMap((r) => JSON.parse(r.allowed_origins) as string[]))
    this.#origins = { set, expiresAt: now + this.ttlMs }
    return set
  }

  /** Forgets one app (after a change to it), or everything. */
  invalidate(id?: string): void {
    if (id !== undefined) {
      this.#entries.delete(id)
      return
    }
    this.#entries.clear()
    this.#origins = null
  }

  #sweep(now: number): void {
    for (const [key, entry] of this.#entries) if (entry.expiresAt <= now) this.#entries.delete(key)
    if (this.#entries.size >= MAX_ENTRIES) this.#entries.clear()
  }
}
