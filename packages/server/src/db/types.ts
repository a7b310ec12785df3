import type { Generated } from 'kysely'
import type { AppSecretsTable } from '../apps/app-secrets-table.ts'
import type { CrossAppCodesTable, CrossAppTokensTable } from '../auth/cross-app/tables.ts'
import type {
  AdminAuditTable,
  AdminCredentialsTable,
  ConsoleSessionsTable,
} from '../console/tables.ts'
import type {
  DelegatedActionsTable,
  DelegationKeysTable,
  DelegationPoliciesTable,
  WalletDelegationsTable,
} from '../delegation/tables.ts'
import type { SponsoredOperationsTable } from '../smart-wallets/tables.ts'
import type { WebhookEndpointsTable, WebhookOutboxTable } from '../webhooks/tables.ts'

/**
 * Table shapes. Portable across SQLite and Postgres: text ids, epoch-ms
 * timestamps as bigint, booleans as 0/1 integers, JSON as text.
 */
export interface AppsTable {
  id: string
  name: string
  secret_hash: string
  /** JSON array of origins. */
  allowed_origins: string
  /** JSON object, see AppSettings. */
  settings: string
  created_at: number
}

export interface UsersTable {
  id: string
  app_id: string
  created_at: number
  has_accepted_terms: number
  is_guest: number
}

export interface LinkedAccountsTable {
  id: string
  user_id: string
  app_id: string
  type: string
  /** Normalised identity key (lowercased email…); unique per app and type. */
  identifier: string
  /** JSON object of type-specific data (e.g. the address as typed). */
  data: string
  created_at: number
  first_verified_at: number
  latest_verified_at: number
}

export interface OtpCodesTable {
  id: string
  app_id: string
  channel: string
  identifier: string
  code_hash: string
  expires_at: number
  attempts: number
  consumed_at: number | null
  created_at: number
}

/** When the last code went to an identifier (migration 009): the resend cooldown, claimed atomically. */
export interface OtpSendCooldownsTable {
  app_id: string
  channel: string
  identifier: string
  sent_at: number
}

export interface SessionsTable {
  id: string
  app_id: string
  user_id: string
  created_at: number
  last_used_at: number
  expires_at: number
  revoked_at: number | null
  /**
   * RFC 7638 thumbprint of the enclave device key the session was bound to at
   * login (migration 012, sessions/enclave-key.ts); null: key routes refuse it.
   */
  enclave_jkt: string | null
}

export interface RefreshTokensTable {
  token_hash: string
  session_id: string
  created_at: number
  rotated_at: number | null
  replaced_by: string | null
  /** The successor token, sealed under a key derived from this token (migration 008, sessions/successor.ts). */
  successor: string | null
}

export interface SigningKeysTable {
  kid: string
  /** AES-GCM sealed private JWK (purpose signing-keys, AAD = kid). */
  private_jwk: string
  public_jwk: string
  created_at: number
  retired_at: number | null
}

export interface DevMailboxTable {
  id: Generated<number>
  app_id: string | null
  to: string
  subject: string
  text: string
  created_at: number
}

export interface AnalyticsEventsTable {
  id: string
  app_id: string
  event_name: string
  client_id: string | null
  payload: string
  created_at: number
}

/**
 * One embedded-wallet secret (HD entropy or imported key) and its shares.
 * Sealed columns: AES-256-GCM (SecretBox), associated data binding app id,
 * entropy id, user id and the column (see wallets/service.ts).
 */
export interface WalletSecretsTable {
  /** The secret's first address; Ethereum addresses lowercased. */
  entropy_id: string
  app_id: string
  user_id: string
  entropy_type: 'hd' | 'private-key'
  /** Sealed (purpose auth-shares). */
  auth_share: string
  recovery_method: 'latchkey' | 'user-passcode' | 'google-drive' | 'icloud'
  /** Sealed (purpose recovery-shares): the device share under the recovery key. */
  recovery_ciphertext: string
  /** Sealed (purpose recovery-keys); automatic (`latchkey`) recovery only. */
  recovery_key: string | null
  /** JSON argon2id parameters; `user-passcode` only. */
  recovery_kdf: string | null
  /** Names the cloud file / record of the recovery key; `google-drive` and `icloud` only. */
  recovery_key_id: string | null
  created_at: number
  updated_at: number
}

/**
 * Credentials an app configured for a provider (Google Drive, iCloud; later
 * login OAuth providers). `client_secret` is sealed (purpose
 * provider-credentials, associated data binding app id, provider and column);
 * see apps/credentials.ts.
 */
export interface AppProviderCredentialsTable {
  app_id: string
  provider: string
  client_id: string | null
  /** Sealed; the Google client secret, or the CloudKit API token. */
  client_secret: string | null
  /** JSON object of non-secret provider settings (CloudKit container and environment). */
  settings: string
  created_at: number
  updated_at: number
}

/** One cloud-recovery OAuth consent in flight: single use, 10 minutes. */
export interface RecoveryOAuthStatesTable {
  /** HMAC of the state code (purpose recovery-oauth-states); the code itself is never stored. */
  state_hash: string
  app_id: string
  user_id: string
  provider: string
  /** Where the provider returns the user; Google's redirect_uri at the exchange. */
  redirect_to: string
  /** S256 PKCE challenge (Google Drive only). */
  code_challenge: string | null
  created_at: number
  expires_at: number
  used_at: number | null
}

/** One OAuth login or link redirect in flight (auth/oauth/state.ts): single use, 10 minutes. */
/** A SIWE / SIWS nonce (migration 006): single-use, bound to an app and an address. */
export interface SignInNoncesTable {
  nonce: string
  app_id: string
  chain_type: 'ethereum' | 'solana'
  /** Canonical address (lowercase hex, or base58). */
  address: string
  /** SIWS: the sign-in input the server built, JSON; null for SIWE. */
  sign_in_input: string | null
  created_at: number
  expires_at: number
  used_at: number | null
}

/** A Farcaster relay channel this server opened (migration 006). */
export interface FarcasterChannelsTable {
  /** SHA-256 (hex) of the relay's channel token. */
  channel_token_hash: string
  app_id: string
  nonce: string
  domain: string
  siwe_uri: string
  created_at: number
  expires_at: number
  used_at: number | null
  /** The relay's completed status (JSON), kept from its first read until the channel is spent. */
  completion: string | null
}

/** A Farcaster signer key of a user of an app and its signed key request (migration 017). */
export interface FarcasterSignersTable {
  app_id: string
  /** 0x-prefixed lowercase hex of the ed25519 public key. */
  public_key: string
  user_id: string
  request_token: string
  approval_url: string
  status: 'pending_approval' | 'approved' | 'revoked'
  fid: number | null
  deadline: number
  created_at: number
  updated_at: number
}

export interface OAuthLoginStatesTable {
  /** HMAC of the state code (purpose oauth-login-states); the code itself is never stored. */
  state_hash: string
  app_id: string
  /** The signed-in user of a `link` state; null for a login. */
  user_id: string | null
  provider: string
  intent: 'login' | 'link'
  /** The provider's redirect_uri, checked against the app's origins. */
  redirect_to: string
  /** S256 PKCE challenge; the verifier must match it at authenticate / link. */
  code_challenge: string
  created_at: number
  expires_at: number
  used_at: number | null
}

export interface PasskeyChallengesTable {
  /** base64url challenge as sent to the browser. */
  challenge: string
  app_id: string
  /**
   * `mfa`: an MFA verification (mfa/passkey.ts), bound to the user; its
   * `origin` lists the app origins of the RP ID, space-separated.
   */
  purpose: 'register' | 'authenticate' | 'link' | 'mfa'
  user_id: string | null
  rp_id: string
  origin: string
  webauthn_user_id: string | null
  created_at: number
  expires_at: number
  used_at: number | null
}

export interface CaptchaTokensTable {
  /** SHA-256 (hex) of a verified token. */
  token_hash: string
  app_id: string
  created_at: number
  expires_at: number
}

/** A Telegram login payload already used (migration 008): single use until its auth_date is stale. */
export interface TelegramPayloadsTable {
  /** SHA-256 of the payload's signature. */
  payload_hash: string
  app_id: string
  created_at: number
  expires_at: number
}

export interface AccountTransfersTable {
  /** SHA-256 (hex) of the transfer nonce. */
  nonce_hash: string
  app_id: string
  user_id: string
  from_user_id: string
  account_type: string
  identifier: string
  /** JSON account data. */
  data: string
  created_at: number
  expires_at: number
  used_at: number | null
}

/** One release of key material to a session (migration 011, wallets/key-releases.ts). */
export interface KeyReleasesTable {
  id: string
  app_id: string
  user_id: string
  /** Canonical entropy id of the secret. */
  entropy_id: string
  kind: 'auth_share' | 'recovery'
  /** The access token's `sid`. */
  session_id: string
  /** The session's enclave key (its RFC 7638 thumbprint), whose proof the release answered. */
  enclave_key_thumbprint: string | null
  ip: string | null
  /** Cut to 256 characters. */
  user_agent: string | null
  created_at: number
}

/** A spent enclave proof (migration 012, sessions/enclave-proof.ts): single use until its `iat` is stale. */
export interface EnclaveProofJtisTable {
  /** SHA-256 (base64url) of `${jkt}.${jti}`. */
  jti_hash: string
  expires_at: number
}

/**
 * A user's MFA method (migration 013, docs/mfa.md): a pending setup
 * (`enabled` 0, until `expires_at`) or an enabled factor (`enabled` 1,
 * `expires_at` null). One row per user and method.
 */
export interface MfaFactorsTable {
  id: string
  app_id: string
  user_id: string
  method: 'totp' | 'sms' | 'passkey'
  /** TOTP: the base32 secret, sealed (purpose totp-secrets; mfa/factors.ts). */
  secret: string | null
  enabled: number
  /** TOTP: the last time step a code was accepted for (replay refusal). */
  last_used_step: number | null
  created_at: number
  enabled_at: number | null
  expires_at: number | null
}

/** A session's MFA verification (migration 013): key routes pass until `expires_at`. */
export interface MfaVerificationsTable {
  session_id: string
  user_id: string
  method: 'totp' | 'sms' | 'passkey'
  verified_at: number
  expires_at: number
}

/** A user's MFA code attempts in the window ending at `expires_at` (migration 013, mfa/attempts.ts). */
export interface MfaAttemptsTable {
  user_id: string
  attempts: number
  expires_at: number
}

export interface Database {
  apps: AppsTable
  users: UsersTable
  linked_accounts: LinkedAccountsTable
  otp_codes: OtpCodesTable
  otp_send_cooldowns: OtpSendCooldownsTable
  sessions: SessionsTable
  refresh_tokens: RefreshTokensTable
  signing_keys: SigningKeysTable
  dev_mailbox: DevMailboxTable
  analytics_events: AnalyticsEventsTable
  wallet_secrets: WalletSecretsTable
  app_provider_credentials: AppProviderCredentialsTable
  recovery_oauth_states: RecoveryOAuthStatesTable
  oauth_login_states: OAuthLoginStatesTable
  sign_in_nonces: SignInNoncesTable
  farcaster_channels: FarcasterChannelsTable
  farcaster_signers: FarcasterSignersTable
  passkey_challenges: PasskeyChallengesTable
  captcha_tokens: CaptchaTokensTable
  telegram_payloads: TelegramPayloadsTable
  account_transfers: AccountTransfersTable
  key_releases: KeyReleasesTable
  enclave_proof_jtis: EnclaveProofJtisTable
  mfa_factors: MfaFactorsTable
  mfa_verifications: MfaVerificationsTable
  mfa_attempts: MfaAttemptsTable
  app_secrets: AppSecretsTable
  webhook_endpoints: WebhookEndpointsTable
  webhook_outbox: WebhookOutboxTable
  delegation_keys: DelegationKeysTable
  wallet_delegations: WalletDelegationsTable
  delegation_policies: DelegationPoliciesTable
  delegated_actions: DelegatedActionsTable
  cross_app_codes: CrossAppCodesTable
  cross_app_tokens: CrossAppTokensTable
  admin_credentials: AdminCredentialsTable
  console_sessions: ConsoleSessionsTable
  admin_audit: AdminAuditTable
  sponsored_operations: SponsoredOperationsTable
}
