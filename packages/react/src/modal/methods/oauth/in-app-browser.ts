/*
 * In-app browsers (the web views of social and messaging apps) are refused by
 * several providers (Google answers `disallowed_useragent`), so the modal
 * shows spec 01 §8's notice (IN_APP_BROWSER in the catalogue) instead of
 * starting a login that cannot finish.
 */

/** User-agent markers of the common in-app browsers. */
const IN_APP_MARKERS: readonly RegExp[] = [
  /\bFBAN\/|\bFBAV\/|\bFB_IAB\//, // Facebook, Messenger
  /\bInstagram\b/,
  /\bLine\/\d/, // LINE
  /\bTwitter(?:Android)?\b/,
  /\bmusical_ly\b|\bBytedanceWebview\b|\bTikTok\b/,
  /\bLinkedInApp\b/,
  /\bSnapchat\b/,
  /\bMicroMessenger\b/, // WeChat
  /\bPinterest\b/,
  /; wv\)/, // Android WebView
]

/**
 * Whether `userAgent` (default: this browser's) is an app's embedded browser.
 *
 * @example
 * if (isInAppBrowser()) show(errorMessages.IN_APP_BROWSER)
 */
export function isInAppBrowser(userAgent: string = globalThis.navigator?.userAgent ?? ''): boolean {
  return IN_APP_MARKERS.some((marker) => marker.test(userAgent))
}
