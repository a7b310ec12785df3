import { CODE_LENGTH } from './constants.ts'

// What a user types, checked the same way on both sides: emails, codes and
// wallet names. Apart from validation.ts (which re-exports it) so that a
// page's first chunk, which checks only the app id, carries none of it
// (docs/first-load.md).

// A standard address pattern (the WHATWG `input[type=email]` rule), which is
// what users expect a browser to accept.
const EMAIL_PATTERN =
  /^[a-zA-Z0-9.!#$%&'*+/=?^_`{|}~-]+@[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?(?:\.[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?)+$/

/** True when `value` is a syntactically valid email address (max 254 characters). */
export function isValidEmail(value: string): boolean {
  return value.length <= 254 && EMAIL_PATTERN.test(value)
}

/** True when the local part uses plus-addressing (`name+tag@host`). */
export function isPlusEmail(value: string): boolean {
  const at = value.lastIndexOf('@')
  return at > 0 && value.slice(0, at).includes('+')
}

/** Lowercased, trimmed form used as the identity key of an email account. */
export function normalizeEmail(value: string): string {
  return value.trim().toLowerCase()
}

/** True when `value` is exactly the numeric code length. */
export function isCompleteCode(value: string): boolean {
  return value.length === CODE_LENGTH && /^\d+$/.test(value)
}

/**
 * A wallet name normalised for allowlisting (spec 01 §5): trimmed,
 * lowercased, a trailing `-wallet` / `-extension` (also `_wallet`,
 * ` wallet`) stripped, inner spaces as `_`. One rule for the client's
 * listings and the server's allowlist, so `MetaMask-Wallet`, `metamask` and
 * `MetaMask Extension` all read `metamask`.
 *
 * @example
 * normalizeWalletName('Rabby-Extension') // 'rabby'
 */
export function normalizeWalletName(name: string): string {
  return name
    .trim()
    .toLowerCase()
    .replace(/[\s_-]+(wallet|extension)$/, '')
    .replace(/\s+/g, '_')
}
