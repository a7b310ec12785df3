// What the global setup hands the browser tests (`inject('e2e')`).

export interface E2EContext {
  serverUrl: string
  /** The server's data folder (`latchkey --data`): its SQLite database unless `databaseUrl`. */
  dataDir: string
  /** The server's PostgreSQL URL (its own schema) when the run uses PostgreSQL. */
  databaseUrl: string | null
  demoUrl: string
  appId: string
  /**
   * A second app (same origins) whose modal offers email and external-wallet
   * login: the demo uses it with `?appId=` (wallet tests), so the first app's
   * landing layout stays as the other tests expect it.
   */
  walletAppId: string
  /**
   * Email and passkey login (passkey browser tests: Chromium's virtual
   * authenticator). Allowed on the demo's localhost origin too: WebAuthn
   * refuses an IP address as RP ID.
   */
  passkeyAppId: string
  /** Email login behind the self-hosted ALTCHA captcha. */
  captchaAppId: string
  /**
   * Email and SMS login that requires terms acceptance, with an allowlist of
   * the domain `invited.example` and the address `guest.list@example.com`.
   */
  gatesAppId: string
  /** Email and SMS login for account-transfer tests (no gates). */
  transferAppId: string
  /** Email login with at most 1 user. */
  limitAppId: string
  /**
   * Email, SMS and passkey login with every MFA method on offer
   * (docs/mfa.md); allowed on the demo's localhost origin too, for passkeys.
   */
  mfaAppId: string
  /**
   * Email login with wallet funding on (docs/funding.md): Receive funds and
   * Transfer from wallet, 0.5 of the native currency asked for.
   */
  fundingAppId: string
  /** The MoonPay hosts the server names for the funding app (routed by the tests). */
  moonpay: { apiUrl: string; widgetUrl: string; publishableKey: string }
  /** Funding by Coinbase Onramp only (card and exchange), against the local Coinbase (./coinbase-setup.ts). */
  coinbaseAppId: string
  coinbase: { payUrl: string; controlUrl: string }
  /**
   * Wallet transfer and Receive with `cross_chain_bridging_enabled`, 0.5 asked
   * for; the server's bridge is the local Relay (./bridge-setup.ts), driven
   * through `bridge.controlUrl`.
   */
  bridgeAppId: string
  bridge: { controlUrl: string }
  /** The local fake Google (OAuth + Drive) and CloudKit the server's cloud recovery talks to. */
  fakeGoogleUrl: string
  fakeCloudKitUrl: string
  /** The local OpenID Provider the app's `google` login uses (its authorization endpoint is `${issuer}/auth`). */
  oidcIssuer: string
  /** Accounts that can log in there, picked with `login_hint` (the first when none is given). */
  oidcAccounts: E2EOidcAccount[]
  /** The local GitHub look-alike the app's `github` login uses. */
  githubUrl: string
  /** Email login; its backend's app secret, and a delegation policy allowing personal_sign only. */
  delegation: { appId: string; appSecret: string }
  /** Cross-app: a provider app (page on demoUrl) and a requester app (the demo on localhost). */
  crossApp: { providerAppId: string; requesterAppId: string }
}

export interface E2EOidcAccount {
  sub: string
  email: string
}

declare module 'vitest' {
  export interface ProvidedContext {
    e2e: E2EContext
  }
}
