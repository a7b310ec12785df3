import { createHash, randomBytes } from 'node:crypto'
import { ENCLAVE_PROOF_TYP, routes } from '@latchkey/protocol'
import { CompactSign, calculateJwkThumbprint, exportJWK, generateKeyPair, type JWK } from 'jose'
import type { TestInstance } from './instance.ts'
import { ethAddress, hdBody, recovery } from './wallets.ts'

/** What a proof says; every field can be overridden to forge a bad one. */
export interface TestProofOptions {
  /** HTTP method (the `htm`; default 'POST'). */
  method?: string
  /** Request path; `htu` is `${origin}${path}` unless `htu` is given. */
  path: string
  /** The bearer access token (`ath` is its SHA-256 unless `ath` is given). */
  token: string
  /** The origin in `htu` (default: the test instance's own origin, http://latchkey.test). */
  origin?: string
  /** Seconds (default: `now` in seconds). */
  iat?: number
  /** Default: 16 random bytes, base64url. */
  jti?: string
  htu?: string
  ath?: string
  /** The test clock's ms (default Date.now()); `iat` is taken from it. */
  now?: number
  /** Header overrides: another `typ`, a `jwk` with `d`… */
  header?: Record<string, unknown>
  /** Claim overrides applied last (any JSON); an `undefined` value drops the claim. */
  claims?: Record<string, unknown>
}

/** An enclave device key for tests: its thumbprint (the `latchkey-enclave-key` value) and a proof signer. */
export interface TestEnclaveKey {
  /** RFC 7638 SHA-256 thumbprint, base64url. */
  jkt: string
  /** The public JWK (as embedded in each proof's header). */
  jwk: JWK
  /** A `dpop` header value (RFC 9449 §4.2 shape) signed by this key. */
  proof(options: TestProofOptions): Promise<string>
}

export const DEFAULT_PROOF_ORIGIN = 'http://latchkey.test'

/** base64url(SHA-256(ASCII)): the proof's `ath` of an access token. */
export const accessTokenHash = (token: string): string =>
  createHash('sha256').update(token, 'ascii').digest('base64url')

/**
 * A new P-256 device key, as the enclave makes one (non-extractable there;
 * here the private key stays in this object).
 *
 * @example
 * const key = await createTestEnclaveKey()
 * await t.login('a@b.co', { enclaveKey: key })
 * const dpop = await key.proof({ path: routes.embeddedWalletsAuthShare, token, now: t.clock.now() })
 */
export async function createTestEnclaveKey(): Promise<TestEnclaveKey> {
  const { publicKey, privateKey } = await generateKeyPair('ES256')
  const { kty, crv, x, y } = await exportJWK(publicKey)
  const jwk: JWK = { kty, crv, x, y }
  const jkt = await calculateJwkThumbprint(jwk, 'sha256')
  return {
    jkt,
    jwk,
    proof(options) {
      const now = options.now ?? Date.now()
      const origin = options.origin ?? DEFAULT_PROOF_ORIGIN
      const claims = {
        htm: options.method ?? 'POST',
        htu: options.htu ?? `${origin}${options.path}`,
        iat: options.iat ?? Math.floor(now / 1000),
        jti: options.jti ?? randomBytes(16).toString('base64url'),
        ath: options.ath ?? accessTokenHash(options.token),
        ...options.claims,
      }
      // CompactSign, not SignJWT: a forged proof may carry claims SignJWT refuses to write.
      return new CompactSign(new TextEncoder().encode(JSON.stringify(claims)))
        .setProtectedHeader({ typ: ENCLAVE_PROOF_TYP, alg: 'ES256', jwk, ...options.header })
        .sign(privateKey)
    },
  }
}

/**
 * Each key route (`auth: 'enclave'`) with a well-formed body for `wallet`
 * (an HD secret the caller owns): a call that passed the enclave checks would
 * touch key material.
 */
export function keyRouteCalls(wallet: {
  entropy_id: string
}): Array<{ name: string; path: string; body: object }> {
  const entropy_id = wallet.entropy_id
  return [
    { name: 'create', path: routes.embeddedWalletsCreate, body: hdBody() },
    {
      name: 'add',
      path: routes.embeddedWalletsAdd,
      body: { entropy_id, chain_type: 'ethereum', address: ethAddress(), wallet_index: 1 },
    },
    { name: 'auth share', path: routes.embeddedWalletsAuthShare, body: { entropy_id } },
    { name: 'recovery', path: routes.embeddedWalletsRecovery, body: { entropy_id } },
    {
      name: 'set recovery',
      path: routes.embeddedWalletsSetRecovery,
      body: { entropy_id, recovery: recovery('latchkey') },
    },
    {
      name: 'cloud consent exchange',
      path: routes.recoveryOAuthAuthenticate,
      body: {
        provider: 'google-drive',
        authorization_code: 'code',
        state_code: randomBytes(16).toString('base64url'),
        code_verifier: randomBytes(32).toString('base64url'),
      },
    },
  ]
}

/**
 * What a key route could change or leave behind: release records, secret
 * rows (sealed shares, recovery), linked accounts. Equal before and after a
 * refused call.
 */
export async function keyMaterialSnapshot(t: TestInstance) {
  return {
    releases: await t.countRows('key_releases'),
    secrets: await t.db.selectFrom('wallet_secrets').selectAll().orderBy('entropy_id').execute(),
    accounts: await t.countRows('linked_accounts'),
  }
}
