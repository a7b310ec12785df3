import { createHmac } from 'node:crypto'
import { dataCheckString, loginWidgetSecret, webAppSecret } from './verify.ts'

/** Bot tokens for tests (BotFather's shape: `<bot id>:<35 url-safe chars>`). */
export const TEST_BOT_TOKEN = '7000000001:AAH-test_bot_token_aaaaaaaaaaaaaaaaaa'
export const OTHER_BOT_TOKEN = '7000000002:AAH-other_bot_token_bbbbbbbbbbbbbbbbb'
export const TEST_BOT_ID = '7000000001'
export const TEST_BOT_NAME = 'latchkey_test_bot'

/** A Login Widget result signed as Telegram signs it (SHA256(token) key). */
export function signLoginWidget(
  fields: Record<string, string | number>,
  botToken = TEST_BOT_TOKEN,
): Record<string, string | number> {
  const strings = Object.fromEntries(Object.entries(fields).map(([k, v]) => [k, String(v)]))
  const hash = createHmac('sha256', loginWidgetSecret(botToken))
    .update(dataCheckString(strings))
    .digest('hex')
  return { ...fields, hash }
}

/** A Mini App initData string signed as Telegram signs it (HMAC('WebAppData', token) key). */
export function signWebAppData(fields: Record<string, string>, botToken = TEST_BOT_TOKEN): string {
  const hash = createHmac('sha256', webAppSecret(botToken))
    .update(dataCheckString(fields))
    .digest('hex')
  return new URLSearchParams({ ...fields, hash }).toString()
}
