/**
 * One app secret (migration 019, apps/app-secrets.ts): 256 random bits, kept
 * only as its SHA-256. Several per app (rotation); a revoked one stays listed.
 */
export interface AppSecretsTable {
  id: string
  app_id: string
  /** SHA-256 (base64url) of the secret. */
  secret_hash: string
  created_at: number
  /** Last accepted use, to the minute (null: never used). */
  last_used_at: number | null
  revoked_at: number | null
}
