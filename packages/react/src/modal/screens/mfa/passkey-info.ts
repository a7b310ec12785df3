import type { PasskeyAccount } from '@latchkey/core'

export const dateFormat = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium' })

/** 'Chrome on macOS', 'Chrome', 'macOS', or null when the server could not tell. */
export function createdWith({ createdWithBrowser: browser, createdWithOs: os }: PasskeyAccount) {
  if (browser && os) return `${browser} on ${os}`
  return browser ?? os ?? null
}

export const passkeyName = (passkey: PasskeyAccount) => passkey.authenticatorName ?? 'Passkey'

/** When the newest of `passkeys` was added (its first verification), or null for none. */
export function newestAddedAt(passkeys: readonly PasskeyAccount[]): Date | null {
  let newest: Date | null = null
  for (const { firstVerifiedAt } of passkeys) {
    if (!newest || firstVerifiedAt.getTime() > newest.getTime()) newest = firstVerifiedAt
  }
  return newest
}
