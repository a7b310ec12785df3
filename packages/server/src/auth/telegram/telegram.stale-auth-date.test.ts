import { describe, expect, it } from 'vitest'
import { signLoginWidget, signWebAppData, TEST_BOT_TOKEN } from './testing.ts'
import {
  TELEGRAM_MAX_AUTH_AGE_S,
  type TelegramVerificationError,
  verifyTelegramLoginWidget,
  verifyTelegramWebAppData,
} from './verify.ts'

// Security bar 22: a correctly signed but old payload is refused (24 h max by
// default), as is one dated in the future beyond the clock skew.
const now = Date.UTC(2030, 0, 1)
const nowS = Math.floor(now / 1000)
const widgetAt = (authDate: number) =>
  signLoginWidget({ id: 5, first_name: 'Old', auth_date: authDate })
const webAppAt = (authDate: number) =>
  signWebAppData({ user: JSON.stringify({ id: 5 }), auth_date: String(authDate) })
const reason = (fn: () => unknown) => {
  try {
    fn()
    return 'accepted'
  } catch (error) {
    return (error as TelegramVerificationError).reason
  }
}

describe('Telegram auth_date freshness', () => {
  it('accepts up to 24 hours, refuses older', () => {
    const edge = nowS - TELEGRAM_MAX_AUTH_AGE_S
    expect(reason(() => verifyTelegramLoginWidget(widgetAt(edge), TEST_BOT_TOKEN, { now }))).toBe(
      'accepted',
    )
    expect(
      reason(() => verifyTelegramLoginWidget(widgetAt(edge - 1), TEST_BOT_TOKEN, { now })),
    ).toBe('stale')
    expect(
      reason(() => verifyTelegramWebAppData(webAppAt(edge - 1), TEST_BOT_TOKEN, { now })),
    ).toBe('stale')
  })

  it('honours a shorter maxAgeS', () => {
    expect(
      reason(() =>
        verifyTelegramLoginWidget(widgetAt(nowS - 301), TEST_BOT_TOKEN, { now, maxAgeS: 300 }),
      ),
    ).toBe('stale')
  })

  it('refuses an auth_date in the future beyond the skew', () => {
    expect(
      reason(() => verifyTelegramLoginWidget(widgetAt(nowS + 30), TEST_BOT_TOKEN, { now })),
    ).toBe('accepted')
    expect(
      reason(() => verifyTelegramLoginWidget(widgetAt(nowS + 3600), TEST_BOT_TOKEN, { now })),
    ).toBe('future')
  })
})
