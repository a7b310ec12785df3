import { createHash, createHmac, timingSafeEqual } from 'node:crypto'

/*
 * Telegram's two signed login payloads, checked exactly as Telegram documents:
 * - Login Widget (https://core.telegram.org/widgets/login#checking-authorization):
 *   secret = SHA256(bot_token); hash = hex(HMAC_SHA256(secret, data_check_string)).
 * - Mini App initData (https://core.telegram.org/bots/webapps#validating-data-received-via-the-mini-app):
 *   secret = HMAC_SHA256(key 'WebAppData', bot_token); hash = hex(HMAC_SHA256(secret, data_check_string)).
 * data_check_string: every received field but `hash`, as `key=value`, sorted
 * by key, joined with '\n'. Pure functions: no I/O, the clock is a parameter.
 */

/** Telegram's user as both payloads carry it (ids as decimal strings). */
export interface TelegramIdentity {
  telegram_user_id: string
  first_name: string | null
  last_name: string | null
  username: string | null
  photo_url: string | null
  /** Unix seconds Telegram signed the payload. */
  auth_date: number
}

export interface TelegramVerifyOptions {
  /** Epoch ms. */
  now: number
  /** Oldest accepted auth_date, seconds (default 24 h). */
  maxAgeS?: number
  /** Accepted clock skew for an auth_date in the future, seconds (default 60). */
  maxFutureSkewS?: number
}

export const TELEGRAM_MAX_AUTH_AGE_S = 24 * 60 * 60

export class TelegramVerificationError extends Error {
  override readonly name = 'TelegramVerificationError'
  constructor(readonly reason: 'malformed' | 'bad-signature' | 'stale' | 'future') {
    super(`Telegram payload refused: ${reason}`)
  }
}

export function dataCheckString(fields: Record<string, string>): string {
  return Object.keys(fields)
    .filter((key) => key !== 'hash')
    .sort()
    .map((key) => `${key}=${fields[key]}`)
    .join('\n')
}

function checkHash(secret: Buffer, fields: Record<string, string>): void {
  const given = fields.hash ?? ''
  if (!/^[0-9a-f]{64}$/i.test(given)) throw new TelegramVerificationError('malformed')
  const expected = createHmac('sha256', secret).update(dataCheckString(fields)).digest()
  // Constant-time compare (security bar 22).
  if (!timingSafeEqual(expected, Buffer.from(given.toLowerCase(), 'hex')))
    throw new TelegramVerificationError('bad-signature')
}

function checkAuthDate(raw: string | undefined, options: TelegramVerifyOptions): number {
  if (!raw || !/^\d{1,12}$/.test(raw)) throw new TelegramVerificationError('malformed')
  const authDate = Number(raw)
  const nowS = Math.floor(options.now / 1000)
  if (authDate > nowS + (options.maxFutureSkewS ?? 60))
    throw new TelegramVerificationError('future')
  if (nowS - authDate > (options.maxAgeS ?? TELEGRAM_MAX_AUTH_AGE_S))
    throw new TelegramVerificationError('stale')
  return authDate
}

const textOrNull = (value: unknown) => (typeof value === 'string' && value !== '' ? value : null)

/** The Login Widget's secret key: SHA256(bot_token). */
export const loginWidgetSecret = (botToken: string) =>
  createHash('sha256').update(botToken).digest()

/** The Mini App secret key: HMAC_SHA256 keyed with 'WebAppData' over the bot token. */
export const webAppSecret = (botToken: string) =>
  createHmac('sha256', 'WebAppData').update(botToken).digest()

/**
 * Checks a Login Widget result (callback object or redirect parameters).
 * Throws TelegramVerificationError; returns the signed identity.
 *
 * @example
 * const identity = verifyTelegramLoginWidget(body.telegram_auth_result, botToken, { now: Date.now() })
 */
export function verifyTelegramLoginWidget(
  result: Record<string, string | number | undefined>,
  botToken: string,
  options: TelegramVerifyOptions,
): TelegramIdentity {
  const fields: Record<string, string> = {}
  for (const [key, value] of Object.entries(result))
    if (value !== undefined) fields[key] = String(value)
  checkHash(loginWidgetSecret(botToken), fields)
  const authDate = checkAuthDate(fields.auth_date, options)
  if (!/^\d{1,20}$/.test(fields.id ?? '')) throw new TelegramVerificationError('malformed')
  return {
    telegram_user_id: fields.id as string,
    first_name: textOrNull(fields.first_name),
    last_name: textOrNull(fields.last_name),
    username: textOrNull(fields.username),
    photo_url: textOrNull(fields.photo_url),
    auth_date: authDate,
  }
}

/**
 * Checks a Mini App's `initData` query string (seamless auth inside Telegram).
 * Throws TelegramVerificationError; returns the signed identity of `user`.
 */
export function verifyTelegramWebAppData(
  initData: string,
  botToken: string,
  options: TelegramVerifyOptions,
): TelegramIdentity {
  const params = new URLSearchParams(initData)
  const fields: Record<string, string> = {}
  for (const [key, value] of params) {
    // A repeated key would make the check string ambiguous.
    if (key in fields) throw new TelegramVerificationError('malformed')
    fields[key] = value
  }
  checkHash(webAppSecret(botToken), fields)
  const authDate = checkAuthDate(fields.auth_date, options)
  let user: Record<string, unknown>
  try {
    user = JSON.parse(fields.user ?? '') as Record<string, unknown>
  } catch {
    throw new TelegramVerificationError('malformed')
  }
  const id = user?.id
  if (!(typeof id === 'number' && Number.isSafeInteger(id) && id > 0))
    throw new TelegramVerificationError('malformed')
  return {
    telegram_user_id: String(id),
    first_name: textOrNull(user.first_name),
    last_name: textOrNull(user.last_name),
    username: textOrNull(user.username),
    photo_url: textOrNull(user.photo_url),
    auth_date: authDate,
  }
}
