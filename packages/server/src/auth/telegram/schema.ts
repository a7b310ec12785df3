/**
 * Wire schemas of Telegram login live in @latchkey/protocol
 * (schemas/telegram.ts); re-exported next to the routes, as every login
 * method does.
 */
export {
  telegramAuthenticateRequestSchema,
  telegramLinkRequestSchema,
  telegramUnlinkRequestSchema,
} from '@latchkey/protocol'

export const TELEGRAM_ACCOUNT_TYPE = 'telegram'

/** Throws an Error when a `telegram_auth_config` setting is malformed (bot id digits, bot username). */
export function assertTelegramAuthSettings(value: unknown): void {
  const v = value as { bot_id?: unknown; bot_name?: unknown } | null
  if (
    !v ||
    typeof v.bot_id !== 'string' ||
    !/^\d{1,20}$/.test(v.bot_id) ||
    typeof v.bot_name !== 'string' ||
    !/^[A-Za-z0-9_]{3,64}$/.test(v.bot_name)
  )
    throw new Error(
      'Invalid telegram_auth_config: bot_id must be digits and bot_name the bot username',
    )
}
