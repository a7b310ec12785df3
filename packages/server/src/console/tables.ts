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

/** One change made in the console (migration 023, console/audit.ts). */
export interface AdminAuditTable {
  id: string
  admin_id: string
  /** What was done: see AdminAction in console/audit.ts. */
  action: string
  /** The app the change was about; null for none. */
  app_id: string | null
  /** What in the app: a user id, a session id; null for the app itself. */
  target: string | null
  /** JSON object: what changed (setting keys, counts), never a secret. */
  detail: string
  created_at: number
}
