/**
 * An admin credential of the console (migration 022, console/admin-credentials.ts):
 * made by `latchkey admin create`, kept only as a salted scrypt hash.
 */
export interface AdminCredentialsTable {
  id: string
  name: string
  /** `scrypt$N$r$p$salt$hash`. */
  secret_hash: string
  created_at: number
  last_used_at: number | null
  revoked_at: number | null
}

/** A signed-in console (migration 022, console/sessions.ts): the cookie value's SHA-256. */
export interface ConsoleSessionsTable {
  id_hash: string
  admin_id: string
  created_at: number
  /** Last request, to the minute; 12 h after it the session has ended. */
  last_used_at: number
}
