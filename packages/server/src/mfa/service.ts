import {
  MFA_ENROLLMENT_TTL_MS,
  type MfaEnrollResponse,
  type MfaStatusResponse,
  type MfaUnenrollRequest,
  type MfaVerification,
  type MfaVerifyRequest,
  type TotpEnrollmentInitResponse,
  type UserWire,
} from '@latchkey/protocol'
import type { AppRecord } from '../apps/service.ts'
import { affected } from '../db/connect.ts'
import { ApiError } from '../errors.ts'
import type { AuthContext, Services } from '../http/context.ts'
import { newId } from '../ids.ts'
import { getUserWire } from '../users/service.ts'
import { claimMfaAttempt, clearMfaAttempts } from './attempts.ts'
import {
  assertMethodAllowed,
  byMethodOrder,
  findEnabledFactor,
  openFactorSecret,
  sealFactorSecret,
} from './factors.ts'
import { unenrollPasskeyMfa, verifyPasskeyMfa } from './passkey.ts'
import { verifySmsCode } from './sms.ts'
import { matchTotpStep, newTotpSecret, totpAuthUrl } from './totp.ts'
import { recordMfaVerification, verifiedUntil } from './verifications.ts'

/*
 * MFA enrollment, verification and removal (docs/mfa.md): the authenticator
 * app here, SMS in sms.ts, passkeys in passkey.ts. The routes
 * (mfa/routes.ts) are enclave routes, and every one that changes factors
 * carries the MFA check, so a user who already has a factor proves it first
 * (spec 02 §4: "Choosing a method first requires MFA verification").
 */

const seconds = (ms: number) => Math.floor(ms / 1000)

/** What an authenticator app names the account: the user's email, else phone, else user id. */
async function accountLabel(services: Services, userId: string): Promise<string> {
  const accounts = await services.db
    .selectFrom('linked_accounts')
    .select(['type', 'identifier'])
    .where('user_id', '=', userId)
    .where('type', 'in', ['email', 'phone'])
    .execute()
  const of = (type: string) => accounts.find((a) => a.type === type)?.identifier
  return of('email') ?? of('phone') ?? userId.replace(/^did:latchkey:/, '')
}

/**
 * Starts (or restarts) an authenticator-app setup: a new secret, sealed in a
 * pending factor that lasts MFA_ENROLLMENT_TTL_MS, and the otpauth:// URI to
 * scan (issuer = the app's name). A user who has TOTP already gets 400
 * MFA_ALREADY_ENROLLED (remove it first).
 */
export async function initTotpEnrollment(
  services: Services,
  app: AppRecord,
  auth: AuthContext,
): Promise<TotpEnrollmentInitResponse> {
  assertMethodAllowed(app, 'totp')
  const now = services.now()
  const id = newId()
  const secret = newTotpSecret()
  const sealed = sealFactorSecret(
    services,
    { appId: app.id, userId: auth.userId, factorId: id, method: 'totp' },
    secret,
  )
  const pending = {
    id,
    secret: sealed,
    enabled: 0,
    last_used_step: null,
    created_at: now,
    enabled_at: null,
    expires_at: now + MFA_ENROLLMENT_TTL_MS,
  }
  // A pending setup is replaced; an enabled factor is never touched (the update's where).
  const result = await services.db
    .insertInto('mfa_factors')
    .values({ ...pending, app_id: app.id, user_id: auth.userId, method: 'totp' })
    .onConflict((oc) =>
      oc.columns(['user_id', 'method']).doUpdateSet(pending).where('mfa_factors.enabled', '=', 0),
    )
    .executeTakeFirst()
  if (Number(result.numInsertedOrUpdatedRows ?? 0) !== 1) throw new ApiError('MFA_ALREADY_ENROLLED')
  const label = await accountLabel(services, auth.userId)
  return { secret, auth_url: totpAuthUrl({ issuer: app.name, label, secret }) }
}

/**
 * Confirms the pending authenticator-app setup with a code from the app: the
 * factor is enabled, the code's step is spent, and the session counts as
 * verified (the user just proved the factor on this device). The code
 * counts against the user's MFA attempts (mfa/attempts.ts).
 */
export async function confirmTotpEnrollment(
  services: Services,
  app: AppRecord,
  auth: AuthContext,
  code: string,
): Promise<MfaEnrollResponse> {
  const now = services.now()
  const pending = await services.db
    .selectFrom('mfa_factors')
    .selectAll()
    .where('user_id', '=', auth.userId)
    .where('method', '=', 'totp')
    .where('enabled', '=', 0)
    .executeTakeFirst()
  if (!pending || pending.secret === null || now >= Number(pending.expires_at))
    throw new ApiError('MFA_ENROLLMENT_EXPIRED')
  await claimMfaAttempt(services, auth.userId)
  const ref = { appId: app.id, userId: auth.userId, factorId: pending.id, method: 'totp' as const }
  const secret = openFactorSecret(services, ref, pending.secret)
  const step = await matchTotpStep({ secret, code, nowMs: now, lastUsedStep: null })
  if (step === null) throw new ApiError('MFA_INVALID_CODE')
  const enabled = await services.db
    .updateTable('mfa_factors')
    .set({ enabled: 1, enabled_at: now, expires_at: null, last_used_step: step })
    .where('id', '=', pending.id)
    .where('enabled', '=', 0)
    .executeTakeFirst()
  // A concurrent confirmation (or a new init) got there first.
  if (affected(enabled) !== 1) throw new ApiError('MFA_ENROLLMENT_EXPIRED')
  await clearMfaAttempts(services, auth.userId)
  const verification = await recordMfaVerification(services, auth, 'totp')
  return { user: await getUserWire(services.db, auth.userId), verification }
}

/**
 * Verifies MFA for this session with one of the user's methods: an
 * authenticator-app code (below), an SMS code (sms.ts) or a passkey
 * assertion (passkey.ts). Each counts against the user's MFA attempts first;
 * a success opens (or renews) this session's window.
 */
export function verifyMfa(
  services: Services,
  app: AppRecord,
  auth: AuthContext,
  request: MfaVerifyRequest,
  ip: string | undefined,
): Promise<MfaVerification> {
  switch (request.method) {
    case 'totp':
      return verifyTotpCode(services, auth, request.code)
    case 'sms':
      return verifySmsCode(services, app, auth, request.code, ip)
    case 'passkey':
      return verifyPasskeyMfa(services, app, auth, request)
  }
}

/**
 * An authenticator-app code (security bar 7): it must be the factor's for a
 * step within ±1 of the server's clock and later than the last step
 * accepted, which this call spends with a conditional UPDATE — a code works
 * once, also under a concurrent double submit, and a code of an earlier step
 * fails once a later one was used.
 */
async function verifyTotpCode(
  services: Services,
  auth: AuthContext,
  code: string,
): Promise<MfaVerification> {
  const factor = await findEnabledFactor(services.db, auth.userId, 'totp')
  if (!factor || factor.secret === null) throw new ApiError('MFA_NOT_ENROLLED')
  await claimMfaAttempt(services, auth.userId)
  const now = services.now()
  const ref = {
    appId: factor.app_id,
    userId: auth.userId,
    factorId: factor.id,
    method: factor.method,
  }
  const lastUsedStep = factor.last_used_step === null ? null : Number(factor.last_used_step)
  const step = await matchTotpStep({
    secret: openFactorSecret(services, ref, factor.secret),
    code,
    nowMs: now,
    lastUsedStep,
  })
  if (step === null) throw new ApiError('MFA_INVALID_CODE')
  const spent = await services.db
    .updateTable('mfa_factors')
    .set({ last_used_step: step })
    .where('id', '=', factor.id)
    .where((eb) => eb.or([eb('last_used_step', 'is', null), eb('last_used_step', '<', step)]))
    .executeTakeFirst()
  // The same step (or a later one) was spent by a concurrent request.
  if (affected(spent) !== 1) throw new ApiError('MFA_INVALID_CODE')
  await clearMfaAttempts(services, auth.userId)
  return recordMfaVerification(services, auth, 'totp')
}

/**
 * Removes one of the user's MFA methods (a pending setup of it included);
 * 400 MFA_NOT_ENROLLED when there is none. Passkeys leave one by one or all
 * together (passkey.ts). The route's MFA check has already demanded a fresh
 * verification when the user has an enabled factor.
 */
export async function unenrollMfa(
  services: Services,
  app: AppRecord,
  auth: AuthContext,
  request: MfaUnenrollRequest,
): Promise<UserWire> {
  if (request.method === 'passkey') return unenrollPasskeyMfa(services, app, auth, request)
  const { method } = request
  const deleted = await services.db
    .deleteFrom('mfa_factors')
    .where('user_id', '=', auth.userId)
    .where('method', '=', method)
    .executeTakeFirst()
  if (Number(deleted.numDeletedRows) === 0) throw new ApiError('MFA_NOT_ENROLLED')
  services.logger.info(`MFA method ${method} removed by its owner: ${auth.userId}`)
  return getUserWire(services.db, auth.userId)
}

/** The user's enabled factors and this session's window (GET /api/v1/mfa). */
export async function mfaStatus(services: Services, auth: AuthContext): Promise<MfaStatusResponse> {
  const factors = await services.db
    .selectFrom('mfa_factors')
    .select(['method', 'enabled_at', 'created_at'])
    .where('user_id', '=', auth.userId)
    .where('enabled', '=', 1)
    .execute()
  const until = await verifiedUntil(services, auth)
  return {
    factors: factors
      .sort((a, b) => byMethodOrder(a.method, b.method))
      .map((f) => ({
        method: f.method,
        enrolled_at: seconds(Number(f.enabled_at ?? f.created_at)),
      })),
    verified_until: until === null ? null : seconds(until),
  }
}
