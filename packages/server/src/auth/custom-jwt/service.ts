import type { AuthResponse, UserWire } from '@latchkey/protocol'
import {
  createRemoteJWKSet,
  importSPKI,
  type JWTPayload,
  type JWTVerifyGetKey,
  errors as joseErrors,
  jwtVerify,
} from 'jose'
import type { AppRecord } from '../../apps/service.ts'
import { isUniqueViolation } from '../../db/connect.ts'
import { ApiError } from '../../errors.ts'
import type { Services } from '../../http/context.ts'
import { startSession } from '../../sessions/service.ts'
import {
  type AccountInput,
  createUserWithAccount,
  findAccount,
  getUserWire,
  insertAccount,
  linkedAccountsOf,
} from '../../users/service.ts'
import { CUSTOM_ACCOUNT_TYPE, type CustomAuthSettings, customAuthSettingsSchema } from './schema.ts'

/**
 * Asymmetric algorithms only (security bar 27): with a public key or a JWKS,
 * an HMAC algorithm would let anyone holding the public key sign (key
 * confusion), and `none` signs nothing.
 */
export const CUSTOM_JWT_ALGORITHMS = [
  'RS256',
  'RS384',
  'RS512',
  'PS256',
  'PS384',
  'PS512',
  'ES256',
  'ES384',
  'ES512',
  'EdDSA',
  'Ed25519',
]

/** Accepted clock skew on exp/nbf, seconds. */
const CLOCK_TOLERANCE_S = 30

// One remote key set per JWKS URL per server: jose caches the keys (10 min)
// and refetches on an unknown kid at most every 30 s.
const remoteKeySets = new WeakMap<Services, Map<string, JWTVerifyGetKey>>()
const MAX_KEY_SETS = 1000

function keySetFor(services: Services, url: string): JWTVerifyGetKey {
  let sets = remoteKeySets.get(services)
  if (!sets) {
    sets = new Map()
    remoteKeySets.set(services, sets)
  }
  let set = sets.get(url)
  if (!set) {
    if (sets.size >= MAX_KEY_SETS) sets.delete(sets.keys().next().value as string)
    set = createRemoteJWKSet(new URL(url), { timeoutDuration: 5000 })
    sets.set(url, set)
  }
  return set
}

/** The app's validated custom-auth settings; LOGIN_METHOD_NOT_ALLOWED when not (validly) configured. */
export function customAuthSettingsOf(services: Services, app: AppRecord): CustomAuthSettings {
  const parsed = customAuthSettingsSchema.safeParse(app.settings.custom_auth)
  if (!parsed.success) {
    if (app.settings.custom_auth !== undefined)
      services.logger.warn(`custom_auth of app ${app.id} is invalid; custom-JWT login refused`)
    throw new ApiError('LOGIN_METHOD_NOT_ALLOWED')
  }
  return parsed.data
}

/**
 * Verifies a custom JWT against the app's keys, issuer and audience
 * (security bar 30) and returns the user id it names.
 */
export async function verifyCustomJwt(
  services: Services,
  settings: CustomAuthSettings,
  token: string,
): Promise<string> {
  const options = {
    issuer: settings.issuer,
    audience: settings.audience,
    algorithms: CUSTOM_JWT_ALGORITHMS,
    requiredClaims: ['exp'],
    clockTolerance: CLOCK_TOLERANCE_S,
    currentDate: new Date(services.now()),
  }
  let payload: JWTPayload
  try {
    if (settings.jwks_url) {
      payload = (await jwtVerify(token, keySetFor(services, settings.jwks_url), options)).payload
    } else {
      const pem = settings.public_key_pem as string
      payload = (
        await jwtVerify(
          token,
          async (header: { alg?: string }) =>
            importSPKI(pem, header.alg as string, { extractable: false }),
          options,
        )
      ).payload
    }
  } catch (error) {
    if (error instanceof joseErrors.JWKSTimeout || error instanceof joseErrors.JWKSInvalid)
      services.logger.warn(`custom-JWT key set unavailable: ${error.code}`)
    // Reason codes only (ERR_JWT_EXPIRED…), never the token.
    const reason = error instanceof joseErrors.JOSEError ? error.code : 'ERR_INVALID'
    throw new ApiError('AUTHENTICATION_FAILED', undefined, { reason })
  }
  const subject = payload[settings.subject_claim ?? 'sub']
  const id = typeof subject === 'number' ? String(subject) : subject
  if (typeof id !== 'string' || id === '' || id.length > 256)
    throw new ApiError('AUTHENTICATION_FAILED', undefined, { reason: 'ERR_NO_SUBJECT' })
  return id
}

const toAccount = (customUserId: string): AccountInput => ({
  type: CUSTOM_ACCOUNT_TYPE,
  identifier: customUserId,
  data: {},
})

/** Logs in (or signs up) the `custom` account a verified JWT names. */
export async function authenticateWithCustomJwt(
  services: Services,
  app: AppRecord,
  input: { token: string; mode: 'login-or-sign-up' | 'no-signup' },
): Promise<AuthResponse> {
  const settings = customAuthSettingsOf(services, app)
  const customUserId = await verifyCustomJwt(services, settings, input.token)
  const now = services.now()
  const existing = await findAccount(services.db, app.id, CUSTOM_ACCOUNT_TYPE, customUserId)
  if (existing) {
    await services.db
      .updateTable('linked_accounts')
      .set({ latest_verified_at: now })
      .where('id', '=', existing.id)
      .execute()
    return startSession(services, app.id, existing.user_id, false)
  }
  if (input.mode === 'no-signup') throw new ApiError('USER_DOES_NOT_EXIST')
  try {
    const userId = await createUserWithAccount(services.db, app.id, toAccount(customUserId), now)
    return startSession(services, app.id, userId, true)
  } catch (error) {
    if (!isUniqueViolation(error)) throw error
    const winner = await findAccount(services.db, app.id, CUSTOM_ACCOUNT_TYPE, customUserId)
    if (!winner) throw error
    return startSession(services, app.id, winner.user_id, false)
  }
}

/** Links the `custom` account a verified JWT names to the signed-in user (one per user). */
export async function linkCustomJwt(
  services: Services,
  app: AppRecord,
  userId: string,
  token: string,
): Promise<UserWire> {
  const settings = customAuthSettingsOf(services, app)
  const customUserId = await verifyCustomJwt(services, settings, token)
  const owner = await findAccount(services.db, app.id, CUSTOM_ACCOUNT_TYPE, customUserId)
  if (owner && owner.user_id !== userId) throw new ApiError('ACCOUNT_ALREADY_LINKED')
  const accounts = await linkedAccountsOf(services.db, userId)
  if (accounts.some((a) => a.type === CUSTOM_ACCOUNT_TYPE)) {
    if (owner) return getUserWire(services.db, userId)
    throw new ApiError(
      'CANNOT_LINK_MORE_OF_TYPE',
      'Only one custom account can be linked to an account.',
    )
  }
  try {
    await insertAccount(services.db, app.id, userId, toAccount(customUserId), services.now())
  } catch (error) {
    if (isUniqueViolation(error)) throw new ApiError('ACCOUNT_ALREADY_LINKED')
    throw error
  }
  return getUserWire(services.db, userId)
}
