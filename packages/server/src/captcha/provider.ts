/** The captcha providers behind {@link verifyCaptcha} (docs/captcha.md). */
export type CaptchaProviderName = 'turnstile' | 'altcha'

/**
 * Turnstile site keys: a digit, 'x', then 20+ URL-safe characters
 * (`0x4AAAAAAA…` for real keys, `1x00000000000000000000AA` for Cloudflare's
 * test keys). Spec 01 §5: any other form is refused. The client checks the
 * same form before loading Turnstile.
 */
export const TURNSTILE_SITE_KEY_PATTERN = /^[0-9]x[0-9A-Za-z_-]{20,64}$/

export const isTurnstileSiteKey = (value: string): boolean => TURNSTILE_SITE_KEY_PATTERN.test(value)

/**
 * Which captcha an app runs: Turnstile only when it has both a site key and a
 * Turnstile secret (a provider credential); otherwise the self-hosted ALTCHA,
 * which needs no third party. Null when the app does not enable captcha.
 * The public app configuration and the server's verification both ask this,
 * so the widget the browser runs is always the one the server checks.
 */
export function captchaProviderOf(app: {
  settings: { captcha_enabled?: boolean; captcha_site_key?: string | null }
  configuredProviders: readonly string[]
}): CaptchaProviderName | null {
  const s = app.settings
  if (!s.captcha_enabled) return null
  if (s.captcha_site_key && app.configuredProviders.includes('turnstile')) return 'turnstile'
  return 'altcha'
}
