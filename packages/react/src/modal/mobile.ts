/**
 * A phone or tablet browser: wallet and Farcaster screens offer deep links
 * into the app instead of QR codes and extension instructions.
 */
export const isMobileDevice = (): boolean =>
  /Android|iPhone|iPad|iPod|Mobile/i.test(globalThis.navigator?.userAgent ?? '')
