/**
 * @module
 * The table invariants no failure may break (tracker issue 20, item 4; the
 * fault tests check them after cutting the database or killing a node):
 * each is a query counting the rows that break it, for PostgreSQL and SQLite.
 */

export type Dialect = 'postgres' | 'sqlite'

/** Runs one SQL query and returns its rows. */
export type RunSql = (sql: string) => Promise<Array<Record<string, unknown>>>

const secretOf = (dialect: Dialect, column: string) =>
  dialect === 'postgres'
    ? `(${column}::jsonb ->> 'secret_id')`
    : `json_extract(${column}, '$.secret_id')`

/** Each invariant: what it guarantees, and a query counting the rows that break it (`n`). */
export function invariantQueries(dialect: Dialect): Record<string, string> {
  const secret = secretOf(dialect, 'a.data')
  return {
    'every wallet has its secret row (both shares)': `
      SELECT count(*) AS n FROM linked_accounts a WHERE a.type = 'wallet' AND NOT EXISTS (
        SELECT 1 FROM wallet_secrets s WHERE s.app_id = a.app_id AND s.entropy_id = ${secret})`,
    'every secret holds both shares and has a wallet': `
      SELECT count(*) AS n FROM wallet_secrets s WHERE s.auth_share = '' OR s.recovery_ciphertext = ''
        OR NOT EXISTS (SELECT 1 FROM linked_accounts a WHERE a.type = 'wallet'
          AND a.app_id = s.app_id AND ${secret} = s.entropy_id)`,
    'every session family has exactly one live (unrotated) token': `
      SELECT count(*) AS n FROM sessions s WHERE (SELECT count(*) FROM refresh_tokens r
        WHERE r.session_id = s.id AND r.rotated_at IS NULL) <> 1`,
    'every rotated token names a successor that exists': `
      SELECT count(*) AS n FROM refresh_tokens r WHERE r.rotated_at IS NOT NULL AND NOT EXISTS (
        SELECT 1 FROM refresh_tokens x WHERE x.token_hash = r.replaced_by AND x.session_id = r.session_id)`,
    'no account without a user': `
      SELECT count(*) AS n FROM linked_accounts a WHERE NOT EXISTS (SELECT 1 FROM users u WHERE u.id = a.user_id)`,
    'no session without a user': `
      SELECT count(*) AS n FROM sessions s WHERE NOT EXISTS (SELECT 1 FROM users u WHERE u.id = s.user_id)`,
    'no user without a login method (half created)': `
      SELECT count(*) AS n FROM users u WHERE NOT EXISTS (
        SELECT 1 FROM linked_accounts a WHERE a.user_id = u.id AND a.type <> 'wallet')`,
    'a guest has no login method but its guest account': `
      SELECT count(*) AS n FROM users u WHERE u.is_guest = 1 AND EXISTS (
        SELECT 1 FROM linked_accounts a WHERE a.user_id = u.id AND a.type NOT IN ('wallet', 'guest'))`,
    'an upgraded user keeps no guest account (security bar 37)': `
      SELECT count(*) AS n FROM users u WHERE u.is_guest = 0 AND EXISTS (
        SELECT 1 FROM linked_accounts a WHERE a.user_id = u.id AND a.type = 'guest')`,
  }
}

/**
 * Counts the rows breaking each invariant; `{}` when every one holds.
 *
 * @example
 * expect(await brokenInvariants('postgres', (sql) => client.query(sql).then((r) => r.rows))).toEqual({})
 */
export async function brokenInvariants(
  dialect: Dialect,
  run: RunSql,
): Promise<Record<string, number>> {
  const broken: Record<string, number> = {}
  for (const [name, query] of Object.entries(invariantQueries(dialect))) {
    const [row] = await run(query)
    const n = Number(row?.n ?? 0)
    if (n > 0) broken[name] = n
  }
  return broken
}

/** Row counts of the tables the invariants cover (to show a test did write). */
export async function tableCounts(run: RunSql): Promise<Record<string, number>> {
  const counts: Record<string, number> = {}
  for (const table of [
    'users',
    'linked_accounts',
    'wallet_secrets',
    'sessions',
    'refresh_tokens',
  ]) {
    const [row] = await run(`SELECT count(*) AS n FROM ${table}`)
    counts[table] = Number(row?.n ?? 0)
  }
  return counts
}
