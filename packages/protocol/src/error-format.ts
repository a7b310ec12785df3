import { errorMessages } from './error-catalogue.ts'
import type { ErrorCode } from './error-codes.ts'
import type { UserMessage } from './user-message.ts'

// How a catalogue message (error-catalogue.ts) is shown: placeholders filled,
// one line for an inline alert, and the wording some screens add to it.

/**
 * A message with its placeholders filled, e.g. `{provider}` → 'Google Drive'
 * for the cloud-recovery messages.
 */
export function formatUserMessage(
  code: ErrorCode,
  values: Record<string, string> = {},
): UserMessage {
  const fill = (text: string) => text.replace(/\{(\w+)\}/g, (all, key) => values[key] ?? all)
  const message = errorMessages[code]
  return {
    ...message,
    title: fill(message.title),
    ...(message.detail ? { detail: fill(message.detail) } : {}),
  }
}

/** Fallback wording for code errors other than a wrong code (spec 01 §8). */
export const ISSUE_VERIFYING_CODE = 'Issue verifying code'

/**
 * Under 'Passkey request timed out or rejected by user.' (PASSKEY_FAILED) on a
 * passkey *login*: browsers answer "no passkey for this site on this device"
 * and "cancelled" with the same NotAllowedError (WebAuthn L2 §5.1.4.1), so the
 * screen also names the likelier cause for a newcomer, and offers sign-up
 * where the app allows it (`signup`) or another way in (`login`).
 */
export const NO_PASSKEY_HINT = {
  signup: 'No passkey for this app on this device? Create a new account with one.',
  login: 'No passkey for this app on this device? Log in another way, then add one.',
} as const
