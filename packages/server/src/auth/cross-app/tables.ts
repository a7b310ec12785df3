/** A code a provider app's user handed a requester app (migration 021; docs/cross-app.md). */
export interface CrossAppCodesTable {
  /** HMAC of the code (purpose cross-app-codes); the code itself is never stored. */
  code_hash: string
  provider_app_id: string
  requester_app_id: string
  provider_user_id: string
  /** The requester page's origin the code was posted to. */
  origin: string
  /** S256 PKCE challenge; the requester's verifier must match it. */
  code_challenge: string
  created_at: number
  expires_at: number
  used_at: number | null
}

/** A requester's transact token for one provider user (migration 021). */
export interface CrossAppTokensTable {
  /** HMAC of the token (purpose cross-app-tokens). */
  token_hash: string
  provider_app_id: string
  requester_app_id: string
  provider_user_id: string
  requester_user_id: string
  read_only: number
  created_at: number
  expires_at: number
}
