/*
 * Browser, operating system and device of the browser that registered a
 * passkey, for the passkey list (spec 02 "Passkey management": each passkey
 * shows browser and operating system). A small ordered set of rules, not a
 * full parser: what it does not recognise is null, never a guess.
 */

/** What a User-Agent says about the registering browser. */
export interface UserAgentSummary {
  browser: string | null
  os: string | null
  device: string | null
}

// Order matters: Edge, Opera and Samsung Internet also say "Chrome"; Chrome
// also says "Safari"; every iOS browser is WebKit and names itself by a token.
const BROWSERS: readonly [RegExp, string][] = [
  [/\bEdgA?\/|\bEdgiOS\//, 'Edge'],
  [/\bOPR\/|\bOPiOS\/|\bOpera\b/, 'Opera'],
  [/\bSamsungBrowser\//, 'Samsung Internet'],
  [/\bFirefox\/|\bFxiOS\//, 'Firefox'],
  [/\bBrave\//, 'Brave'],
  [/\bCriOS\/|\bChrome\/|\bChromium\//, 'Chrome'],
  [/\bVersion\/[\d.]+.*\bSafari\/|\bSafari\/.*\bMobile\//, 'Safari'],
]

const SYSTEMS: readonly [RegExp, string][] = [
  [/\biPhone\b|\biPad\b|\biPod\b/, 'iOS'],
  [/\bAndroid\b/, 'Android'],
  [/\bCrOS\b/, 'ChromeOS'],
  [/\bWindows\b/, 'Windows'],
  [/\bMac OS X\b|\bMacintosh\b/, 'macOS'],
  [/\bLinux\b/, 'Linux'],
]

function firstMatch(ua: string, rules: readonly [RegExp, string][]): string | null {
  for (const [pattern, name] of rules) if (pattern.test(ua)) return name
  return null
}

function deviceOf(ua: string, os: string | null): string | null {
  if (/\biPad\b/.test(ua)) return 'iPad'
  if (/\biPhone\b/.test(ua)) return 'iPhone'
  if (/\biPod\b/.test(ua)) return 'iPod'
  if (os === 'Android') return /\bMobile\b/.test(ua) ? 'Phone' : 'Tablet'
  if (os === 'macOS' || os === 'Windows' || os === 'Linux' || os === 'ChromeOS') return 'Desktop'
  return null
}

/**
 * Browser, OS and device from a User-Agent header (or nulls).
 *
 * @example
 * parseUserAgent('Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36')
 * // { browser: 'Chrome', os: 'macOS', device: 'Desktop' }
 */
export function parseUserAgent(userAgent: string | null | undefined): UserAgentSummary {
  const ua = (userAgent ?? '').slice(0, 1024)
  if (!ua) return { browser: null, os: null, device: null }
  const os = firstMatch(ua, SYSTEMS)
  return { browser: firstMatch(ua, BROWSERS), os, device: deviceOf(ua, os) }
}
