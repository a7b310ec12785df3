/**
 * The server's OpenAPI 3.1 document, fetched the way a client gets it:
 * `GET /api/v1/openapi.json` from a server built in process on an in-memory
 * SQLite database (nothing listens on a port).
 *
 * @example
 * const doc = await fetchOpenApiDocument()
 * Object.keys(doc.paths) // ['/api/v1/apps/{app_id}', …]
 */
import { randomBytes } from 'node:crypto'
import { routes } from '@latchkey/protocol'
import { connectSqlite, createLatchkeyServer, silentLogger } from '@latchkey/server'

/** The document a development server serves (its dev mailbox and outbox routes included). */
export async function fetchOpenApiDocument(): Promise<Record<string, unknown>> {
  const server = await createLatchkeyServer({
    db: connectSqlite(':memory:'),
    ownsDb: true,
    masterKey: randomBytes(32),
    publicUrl: 'http://localhost:8787',
    logger: silentLogger,
    purgeIntervalMs: 0,
  })
  try {
    const res = await server.app.request(routes.openapi)
    if (res.status !== 200) throw new Error(`GET ${routes.openapi} answered ${res.status}`)
    return (await res.json()) as Record<string, unknown>
  } finally {
    await server.close()
  }
}
