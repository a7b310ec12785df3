import type { AuthResponse, UserWire } from '@latchkey/protocol'
import { getAppProviderCredentials } from '../../apps/credentials.ts'
import { type AppRecord, toAppConfig } from '../../apps/service.ts'
import { isUniqueViolation } from '../../db/connect.ts'
import { ApiError, limited } from '../../errors.ts'
import type { Services } from '../../http/context.ts'
import { ipBucket } from '../../rate-limit/limit-per-ip.ts'
import { startSession } from '../../sessions/service.ts'
import {
  type AccountInput,
  createUserWithAccount,
  findAccount,
  getUserWire,
  insertAccount,
  linkedAccountsOf,
  unlinkAccount,
} from '../../users/service.ts'
import { accountTransferOrRefusal } from '../../users/transfer.ts'
import { spendTelegramPayload } from './payloads.ts'
import { TELEGRAM_ACCOUNT_TYPE } from './schema.ts'
import {
  type TelegramIdentity,
  TelegramVerificationError,
  verifyTelegramLoginWidget,
  verifyTelegramWebAppData,
} from './verify.ts'

/** One of Telegram's two signed payloads, as the routes receive them. */
export interface TelegramProof {
  telegram_auth_result?: Record<string, string | number | undefined>
  telegram_web_app_data?: string
}

/**
 * The app's Telegram setup, or TELEGRAM_NOT_ALLOWED ('Login with Telegram not
 * allowed.') when the method is off or the bot is not configured.
 */
async function telegramSetup(services: Services, app: AppRecord) {
  const config = toAppConfig(app).telegram_auth_config
  if (!config) throw new ApiError('TELEGRAM_NOT_ALLOWED')
  const credentials = await getAppProviderCredentials(services, app.id, 'telegram')
  // The token's `<bot id>:` prefix must be the configured bot: a token of
  // another bot would accept that bot's logins.
  if (!credentials || credentials.bot_token.split(':')[0] !== config.bot_id) {
    services.logger.warn(`telegram login of app ${app.id}: bot credentials missing or mismatched`)
    throw new ApiError('TELEGRAM_NOT_ALLOWED')
  }
  return { config, botToken: credentials.bot_token }
}

async function limit(services: Services, app: AppRecord, ip: string | undefined): Promise<void> {
  const rule = services.config.rateLimits.telegramAuthPerIp
  const result = await services.limiter.hit(
    `telegram:${app.id}:${ipBucket(ip)}`,
    rule.limit,
    rule.windowMs,
  )
  if (!result.allowed) throw limited('TELEGRAM_RATE_LIMITED', result.resetAt, services.now())
}

/**
 * Verifies the proof with the app's bot token (AUTHENTICATION_FAILED when it
 * does not hold) and spends it: a payload works once (payloads.ts).
 */
async function verifiedIdentity(
  services: Services,
  app: AppRecord,
  proof: TelegramProof,
  ip: string | undefined,
): Promise<TelegramIdentity> {
  const { config, botToken } = await telegramSetup(services, app)
  await limit(services, app, ip)
  const now = services.now()
  let identity: TelegramIdentity
  let hash: string
  try {
    if (proof.telegram_web_app_data !== undefined) {
      if (!config.seamless_auth_enabled) throw new ApiError('TELEGRAM_NOT_ALLOWED')
      identity = verifyTelegramWebAppData(proof.telegram_web_app_data, botToken, { now })
      hash = new URLSearchParams(proof.telegram_web_app_data).get('hash') ?? ''
    } else if (proof.telegram_auth_result !== undefined) {
      identity = verifyTelegramLoginWidget(proof.telegram_auth_result, botToken, { now })
      hash = String(proof.telegram_auth_result.hash)
    } else throw new ApiError('INVALID_PAYLOAD')
  } catch (error) {
    if (error instanceof TelegramVerificationError)
      throw new ApiError('AUTHENTICATION_FAILED', undefined, { reason: error.reason })
    throw error
  }
  await spendTelegramPayload(services, app.id, { hash, authDate: identity.auth_date, now })
  return identity
}

const toAccount = (identity: TelegramIdentity): AccountInput => ({
  type: TELEGRAM_ACCOUNT_TYPE,
  identifier: identity.telegram_user_id,
  data: {
    first_name: identity.first_name,
    last_name: identity.last_name,
    username: identity.username,
    photo_url: identity.photo_url,
  },
})

/** Logs in (or signs up) with a verified Telegram payload (spec 01 §4 "Telegram"). */
export async function authenticateWithTelegram(
  services: Services,
  app: AppRecord,
  input: TelegramProof & { mode: 'login-or-sign-up' | 'no-signup' },
  ip: string | undefined,
): Promise<AuthResponse> {
  const identity = await verifiedIdentity(services, app, input, ip)
  const account = toAccount(identity)
  const now = services.now()
  const existing = await findAccount(services.db, app.id, TELEGRAM_ACCOUNT_TYPE, account.identifier)
  if (existing) {
    // Names and photo change on Telegram's side: keep the latest signed ones.
    await services.db
      .updateTable('linked_accounts')
      .set({ data: JSON.stringify(account.data), latest_verified_at: now })
      .where('id', '=', existing.id)
      .execute()
    return startSession(services, app.id, existing.user_id, false)
  }
  if (input.mode === 'no-signup') throw new ApiError('USER_DOES_NOT_EXIST')
  try {
    const userId = await createUserWithAccount(services.db, app.id, account, now)
    return startSession(services, app.id, userId, true)
  } catch (error) {
    if (!isUniqueViolation(error)) throw error
    const winner = await findAccount(services.db, app.id, TELEGRAM_ACCOUNT_TYPE, account.identifier)
    if (!winner) throw error
    return startSession(services, app.id, winner.user_id, false)
  }
}

/** Links a verified Telegram account to the signed-in user (one per user). */
export async function linkTelegram(
  services: Services,
  app: AppRecord,
  userId: string,
  proof: TelegramProof,
  ip: string | undefined,
): Promise<UserWire> {
  const config = toAppConfig(app).telegram_auth_config
  if (config && !config.link_enabled) throw new ApiError('TELEGRAM_NOT_ALLOWED')
  const account = toAccount(await verifiedIdentity(services, app, proof, ip))
  const owner = await findAccount(services.db, app.id, TELEGRAM_ACCOUNT_TYPE, account.identifier)
  if (owner && owner.user_id !== userId)
    // Another user's only login method may move here (docs/access-control.md).
    throw await accountTransferOrRefusal(
      services,
      app,
      userId,
      owner,
      account,
      'ACCOUNT_ALREADY_LINKED',
    )
  const accounts = await linkedAccountsOf(services.db, userId)
  if (accounts.some((a) => a.type === TELEGRAM_ACCOUNT_TYPE))
    throw new ApiError(
      'CANNOT_LINK_MORE_OF_TYPE',
      'Only one Telegram account can be linked to an account.',
    )
  try {
    await insertAccount(services.db, app.id, userId, account, services.now())
  } catch (error) {
    if (isUniqueViolation(error)) throw new ApiError('ACCOUNT_ALREADY_LINKED')
    throw error
  }
  return getUserWire(services.db, userId)
}

/** Removes the Telegram account from the signed-in user, who must keep one account. */
export async function unlinkTelegram(
  services: Services,
  app: AppRecord,
  userId: string,
  telegramUserId: string,
): Promise<UserWire> {
  return unlinkAccount(services.db, app.id, userId, TELEGRAM_ACCOUNT_TYPE, telegramUserId)
}
