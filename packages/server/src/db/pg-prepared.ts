import type pg from 'pg'

// Named prepared statements for the hot statements on PostgreSQL. A query
// sent as plain text is parsed and planned by PostgreSQL on every run; the
// refresh's one-statement rotation (sessions/rotate-pg.ts) spent much of its
// database CPU there. A statement sent with a name is parsed once per
// connection (node-postgres remembers which names each connection has), and
// PostgreSQL may keep its plan. Only statements built once and run with new
// values take part: db/precompiled.ts registers each one's SQL text.
//
// An operator behind PgBouncer in transaction mode needs its prepared
// statement support (`max_prepared_statements`, PgBouncer 1.21+).

const names = new Map<string, string>()

/** Runs `sql` as a named prepared statement from now on (idempotent). */
export function preparePostgresStatement(sql: string): void {
  if (!names.has(sql)) names.set(sql, `latchkey_${names.size + 1}`)
}

type Query = (...args: unknown[]) => unknown

/**
 * Makes the client send registered SQL texts as named statements: Kysely
 * calls `client.query(text, values)`, which becomes
 * `client.query({ name, text, values })`. Everything else is untouched.
 */
export function usePreparedStatements(client: pg.PoolClient): void {
  const query = client.query.bind(client) as Query
  const named: Query = (text, values, ...rest) => {
    const name = typeof text === 'string' ? names.get(text) : undefined
    if (name === undefined || !Array.isArray(values)) return query(text, values, ...rest)
    return query({ name, text, values }, ...rest)
  }
  client.query = named as typeof client.query
}
