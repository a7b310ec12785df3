import { randomBytes } from 'node:crypto'
import { SIGN_IN_NONCE_TTL_MS } from '@latchkey/protocol'
import type { Kysely, Selectable } from 'kysely'
import type { RateLimitRule } from '../../config.ts'
import type { Database, SignInNoncesTable } from '../../db/types.ts'
import { limited } from '../../errors.ts'
import type { Services } from '../../http/context.ts'
import { ipBucket } from '../../rate-limit/limit-per-ip.ts'
import { walletLoginFailed } from './external-wallet.ts'

/*
 * Sign-in nonces of SIWE and SIWS (security bar 17, EIP-4361 §"nonce"):
 * issued by the server, 128 random bits, bound to one app, chain type and
 * address, valid SIGN_IN_NONCE_TTL_MS, and spent by one conditional UPDATE
 * once the proof verifies, so two concurrent submissions yield one session.
 */

/** Nonces one IP may request per app (SIWE and SIWS together): each init writes a row. */
export const SIGN_IN_INITS_PER_IP: RateLimitRule = { limit: 60, windowMs: 10 * 60_000 }

export type WalletChainType = SignInNoncesTable['chain_type']

/** A nonce as issued: epoch ms of issue and of expiry. */
export interface IssuedNonce {
  nonce: string
  issuedAt: number
  expiresAt: number
}

/** 128 random bits as 32 hex digits: alphanumeric, as EIP-4361 requires (≥ 8). */
export const newSignInNonce = (): string => randomBytes(16).toString('hex')

/** TOO_MANY_REQUESTS once this IP asked for SIGN_IN_INITS_PER_IP nonces of this app. */
export async function limitSignInInit(
  services: Services,
  appId: string,
  ip: string | undefined,
): Promise<void> {
  const { limit, windowMs } = SIGN_IN_INITS_PER_IP
  const result = await services.limiter.hit(
    `sign-in-init:${appId}:${ipBucket(ip)}`,
    limit,
    windowMs,
  )
  if (!result.allowed) throw limited('TOO_MANY_REQUESTS', result.resetAt, services.now())
}

/** A fresh nonce issued now (services.now()), valid SIGN_IN_NONCE_TTL_MS. */
export function newIssuedNonce(services: Services): IssuedNonce {
  const issuedAt = services.now()
  return { nonce: newSignInNonce(), issuedAt, expiresAt: issuedAt + SIGN_IN_NONCE_TTL_MS }
}

/**
 * Stores an issued nonce for `address` (canonical: lowercase hex, or
 * base58) with, for SIWS, the sign-in input the message must repeat.
 * Expired rows are deleted on the way.
 *
 * @example
 * const issued = newIssuedNonce(services)
 * await storeSignInNonce(services, app.id, 'ethereum', '0xab…', issued)
 */
export async function storeSignInNonce(
  services: Services,
  appId: string,
  chainType: WalletChainType,
  address: string,
  issued: IssuedNonce,
  signInInput?: object,
): Promise<void> {
  await services.db
    .deleteFrom('sign_in_nonces')
    .where('expires_at', '<=', issued.issuedAt)
    .execute()
  await services.db
    .insertInto('sign_in_nonces')
    .values({
      nonce: issued.nonce,
      app_id: appId,
      chain_type: chainType,
      address,
      sign_in_input: signInInput ? JSON.stringify(signInInput) : null,
      created_at: issued.issuedAt,
      expires_at: issued.expiresAt,
      used_at: null,
    })
    .execute()
}

/**
 * The unspent, unexpired nonce this app issued for `address` on this chain
 * type; WALLET_LOGIN_FAILED (`nonce_unknown`, `nonce_used`, `nonce_expired`)
 * otherwise. A nonce of another app, chain type or address is unknown.
 */
export async function findUsableNonce(
  db: Kysely<Database>,
  appId: string,
  chainType: WalletChainType,
  nonce: string,
  address: string,
  now: number,
): Promise<Selectable<SignInNoncesTable>> {
  const row = await db
    .selectFrom('sign_in_nonces')
    .selectAll()
    .where('nonce', '=', nonce)
    .where('app_id', '=', appId)
    .where('chain_type', '=', chainType)
    .where('address', '=', address)
    .executeTakeFirst()
  if (!row) throw walletLoginFailed('nonce_unknown')
  if (row.used_at !== null) throw walletLoginFailed('nonce_used')
  if (Number(row.expires_at) <= now) throw walletLoginFailed('nonce_expired')
  return row
}

/**
 * Spends a nonce after its proof verified: one conditional UPDATE, so of
 * two concurrent submissions exactly one wins; the other gets `nonce_used`.
 */
export async function consumeNonce(
  db: Kysely<Database>,
  nonce: string,
  now: number,
): Promise<void> {
  const result = await db
    .updateTable('sign_in_nonces')
    .set({ used_at: now })
    .where('nonce', '=', nonce)
    .where('used_at', 'is', null)
    .where('expires_at', '>', now)
    .executeTakeFirst()
  if (Number(result.numUpdatedRows) !== 1) throw walletLoginFailed('nonce_used')
}
