import { createContext, useContext, useEffect } from 'react'
import type { ScreenName } from '../screen.ts'

/*
 * Spec 01 §2 "Captcha": the invisible captcha runs when the current screen
 * requires it. Those are the landing screen (spec 01 §2 "Landing login
 * screen: Captcha is required") and the screens that send a code or start a
 * login — every call they make to the server may need a fresh token
 * (docs/captcha.md "Which calls carry a token"). Status, outcome and
 * post-login screens start nothing; a start made from one of them anyway
 * (Retry on a social login's failure) still gets its token, solved on demand
 * behind the visible captcha screen.
 */
export const CAPTCHA_SCREENS: ReadonlySet<ScreenName> = new Set<ScreenName>([
  'landing',
  'more-options',
  'email-entry',
  'sms-entry',
  // Resend sends a code.
  'email-code',
  'sms-code',
  'wallet',
  'farcaster',
  'passkey',
  // Telegram has no separate start: its authenticate call carries the token.
  'telegram',
])

/** CaptchaGate's ear for the screen the login flow shows (null outside a gate). */
export const CaptchaScreenContext = createContext<((needsCaptcha: boolean) => void) | null>(null)

/** The login flow reports its screen, so the captcha runs only on the screens that need it. */
export function useCaptchaScreen(screen: ScreenName): void {
  const report = useContext(CaptchaScreenContext)
  const needs = CAPTCHA_SCREENS.has(screen)
  useEffect(() => report?.(needs), [report, needs])
}
