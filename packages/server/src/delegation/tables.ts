/** The server's delegation key pair (migration 020): one row, slot 'current'. */
export interface DelegationKeysTable {
  slot: string
  key_id: string
  /** base64url of the uncompressed P-256 point. */
  public_key: string
  /** PKCS#8 DER of the private key, base64url, sealed (purpose delegation-keys). */
  private_key: string
  created_at: number
}

/** A delegated wallet (migration 020): its device share, sealed at rest. */
export interface WalletDelegationsTable {
  app_id: string
  /** Canonical address. */
  address: string
  user_id: string
  /** The wallet's linked account id (the server API's wallet id). */
  account_id: string
  chain_type: 'ethereum' | 'solana'
  /** Canonical entropy id of the wallet's secret. */
  entropy_id: string
  /** base64url device share, sealed (purpose delegated-shares, AAD: app, user, address, column). */
  device_share: string
  created_at: number
}

/** An app's delegation policy (migration 020); null columns mean no limit. */
export interface DelegationPoliciesTable {
  app_id: string
  /** JSON array of CAIP-2 chains. */
  chains: string | null
  /** JSON array of lowercase `to` addresses. */
  contracts: string | null
  /** JSON array of RPC methods. */
  methods: string | null
  /** Wei, decimal. */
  max_value_per_tx: string | null
  /** Wei, decimal: sum over the wallet's signed transactions of the last 24 hours. */
  max_value_per_day: string | null
  updated_at: number
}

/** One server-side signature attempt (migration 020). */
export interface DelegatedActionsTable {
  id: string
  app_id: string
  user_id: string
  address: string
  chain_type: 'ethereum' | 'solana'
  method: string
  caip2: string | null
  to_address: string | null
  value: string | null
  result: string | null
  /** pending: a transaction's value reserved under a daily cap while it is signed (audit.ts). */
  outcome: 'signed' | 'refused' | 'pending'
  refusal_code: string | null
  created_at: number
}
