import { createHash, createHmac } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import { OTHER_BOT_TOKEN, signLoginWidget, signWebAppData, TEST_BOT_TOKEN } from './testing.ts'
import {
  TelegramVerificationError,
  verifyTelegramLoginWidget,
  verifyTelegramWebAppData,
} from './verify.ts'

// Security bar 22: HMAC-SHA256 over sorted key=value lines, keyed as
// Telegram documents for each payload; any change to a signed field fails.
const now = Date.UTC(2030, 0, 1)
const authDate = Math.floor(now / 1000) - 60
const widget = {
  id: 424242,
  first_name: 'Ada',
  last_name: 'Lovelace',
  username: 'ada',
  photo_url: 'https://t.me/i/userpic/320/ada.jpg',
  auth_date: authDate,
}
const reason = (fn: () => unknown) => {
  try {
    fn()
  } catch (error) {
    if (error instanceof TelegramVerificationError) return error.reason
    throw error
  }
  return 'accepted'
}

describe('Telegram Login Widget signature', () => {
  it('matches the documented construction (secret = SHA256(bot_token))', () => {
    // Written out independently of verify.ts.
    const check = [
      `auth_date=${authDate}`,
      'first_name=Ada',
      'id=424242',
      'last_name=Lovelace',
      'photo_url=https://t.me/i/userpic/320/ada.jpg',
      'username=ada',
    ].join('\n')
    const secret = createHash('sha256').update(TEST_BOT_TOKEN).digest()
    const hash = createHmac('sha256', secret).update(check).digest('hex')
    expect(verifyTelegramLoginWidget({ ...widget, hash }, TEST_BOT_TOKEN, { now })).toEqual({
      telegram_user_id: '424242',
      first_name: 'Ada',
      last_name: 'Lovelace',
      username: 'ada',
      photo_url: 'https://t.me/i/userpic/320/ada.jpg',
      auth_date: authDate,
    })
  })

  it('accepts a result without the optional fields', () => {
    const signed = signLoginWidget({ id: 7, first_name: 'Bo', auth_date: authDate })
    expect(verifyTelegramLoginWidget(signed, TEST_BOT_TOKEN, { now }).username).toBeNull()
  })

  it('refuses a tampered field', () => {
    const signed = signLoginWidget(widget)
    expect(
      reason(() => verifyTelegramLoginWidget({ ...signed, id: 1 }, TEST_BOT_TOKEN, { now })),
    ).toBe('bad-signature')
    expect(
      reason(() =>
        verifyTelegramLoginWidget({ ...signed, username: 'eve' }, TEST_BOT_TOKEN, { now }),
      ),
    ).toBe('bad-signature')
  })

  it('refuses an added or removed field', () => {
    const signed = signLoginWidget(widget)
    const { last_name: _, ...withoutLastName } = signed
    expect(reason(() => verifyTelegramLoginWidget(withoutLastName, TEST_BOT_TOKEN, { now }))).toBe(
      'bad-signature',
    )
    expect(
      reason(() => verifyTelegramLoginWidget({ ...signed, extra: 'x' }, TEST_BOT_TOKEN, { now })),
    ).toBe('bad-signature')
  })

  it("refuses another bot's signature", () => {
    const signed = signLoginWidget(widget, OTHER_BOT_TOKEN)
    expect(reason(() => verifyTelegramLoginWidget(signed, TEST_BOT_TOKEN, { now }))).toBe(
      'bad-signature',
    )
  })

  it('refuses a Mini App key on a widget payload (the two keys differ)', () => {
    const strings = Object.fromEntries(Object.entries(widget).map(([k, v]) => [k, String(v)]))
    const fromWebApp = new URLSearchParams(signWebAppData(strings)).get('hash') as string
    expect(
      reason(() =>
        verifyTelegramLoginWidget({ ...widget, hash: fromWebApp }, TEST_BOT_TOKEN, { now }),
      ),
    ).toBe('bad-signature')
  })

  it('refuses a malformed hash', () => {
    expect(
      reason(() => verifyTelegramLoginWidget({ ...widget, hash: 'zz' }, TEST_BOT_TOKEN, { now })),
    ).toBe('malformed')
  })
})

describe('Telegram Mini App initData signature', () => {
  const user = JSON.stringify({ id: 99, first_name: 'Mia', username: 'mia', language_code: 'en' })
  const fields = { query_id: 'AAHdF6IQAAAAAN0XohDhrOrc', user, auth_date: String(authDate) }

  it("matches the documented construction (secret = HMAC_SHA256('WebAppData', bot_token))", () => {
    const check = [
      `auth_date=${authDate}`,
      'query_id=AAHdF6IQAAAAAN0XohDhrOrc',
      `user=${user}`,
    ].join('\n')
    const secret = createHmac('sha256', 'WebAppData').update(TEST_BOT_TOKEN).digest()
    const hash = createHmac('sha256', secret).update(check).digest('hex')
    const initData = new URLSearchParams({ ...fields, hash }).toString()
    expect(verifyTelegramWebAppData(initData, TEST_BOT_TOKEN, { now })).toMatchObject({
      telegram_user_id: '99',
      first_name: 'Mia',
      username: 'mia',
      last_name: null,
    })
  })

  it('refuses a tampered user', () => {
    const params = new URLSearchParams(signWebAppData(fields))
    params.set('user', JSON.stringify({ id: 100, first_name: 'Mia' }))
    expect(reason(() => verifyTelegramWebAppData(params.toString(), TEST_BOT_TOKEN, { now }))).toBe(
      'bad-signature',
    )
  })

  it("refuses another bot's signature and the widget key", () => {
    expect(
      reason(() =>
        verifyTelegramWebAppData(signWebAppData(fields, OTHER_BOT_TOKEN), TEST_BOT_TOKEN, { now }),
      ),
    ).toBe('bad-signature')
    const widgetHash = signLoginWidget(fields).hash as string
    const initData = new URLSearchParams({ ...fields, hash: widgetHash }).toString()
    expect(reason(() => verifyTelegramWebAppData(initData, TEST_BOT_TOKEN, { now }))).toBe(
      'bad-signature',
    )
  })

  it('refuses a repeated key', () => {
    const initData = `${signWebAppData(fields)}&auth_date=${authDate}`
    expect(reason(() => verifyTelegramWebAppData(initData, TEST_BOT_TOKEN, { now }))).toBe(
      'malformed',
    )
  })
})
