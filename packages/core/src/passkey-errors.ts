import type { ErrorCode } from '@latchkey/protocol/errors'
import { LatchkeyError } from './errors.ts'

/*
 * The one place a WebAuthn failure becomes a catalogue code (spec 01 §8
 * "Passkey"). `navigator.credentials.create()` / `.get()` reject with one of
 * eight DOMExceptions (WebAuthn L2 §5.1.3, §5.1.4); `@simplewebauthn/browser`
 * wraps them in a `WebAuthnError` whose `name` is the DOMException's and whose
 * `code` says which spec step raised it. We read both.
 */

/** `@simplewebauthn/browser`'s error codes that mean "this browser or authenticator cannot do it". */
const UNSUPPORTED_CODES: ReadonlySet<string> = new Set([
  'ERROR_AUTHENTICATOR_MISSING_DISCOVERABLE_CREDENTIAL_SUPPORT',
  'ERROR_AUTHENTICATOR_MISSING_USER_VERIFICATION_SUPPORT',
  'ERROR_AUTHENTICATOR_NO_SUPPORTED_PUBKEYCREDPARAMS_ALG',
])

/** What `startRegistration` / `startAuthentication` throw when `PublicKeyCredential` is missing. */
const UNSUPPORTED_MESSAGE = /webauthn is not supported/i

function codeFor(name: string, code: string | undefined, message: string): ErrorCode {
  // The user cancelled, closed the prompt, or let it time out (WebAuthn §5.1.3 step 20: a
  // timeout surfaces as NotAllowedError), or the ceremony was aborted for a newer one.
  if (name === 'NotAllowedError' || name === 'AbortError' || name === 'TimeoutError')
    return 'PASSKEY_FAILED'
  if (code === 'ERROR_CEREMONY_ABORTED') return 'PASSKEY_FAILED'
  // §5.1.3 step 20 / authenticatorMakeCredential step 3: the authenticator already holds one
  // of the `excludeCredentials` — a passkey of this very account. Said as such (issue 16, 4):
  // read as "timed out or rejected" it sent users to retry on the same device; Retry lets
  // them pick another authenticator (a phone, a security key) in the prompt.
  if (name === 'InvalidStateError' || code === 'ERROR_AUTHENTICATOR_PREVIOUSLY_REGISTERED')
    return 'PASSKEY_ALREADY_LINKED'
  // No WebAuthn at all, or no authenticator with resident keys / user verification / an
  // algorithm the server accepts (§5.1.3 steps 10, 22; authenticatorMakeCredential steps 2, 4, 5).
  if (UNSUPPORTED_MESSAGE.test(message)) return 'WEBAUTHN_UNSUPPORTED'
  if (code && UNSUPPORTED_CODES.has(code)) return 'WEBAUTHN_UNSUPPORTED'
  if (!code && (name === 'NotSupportedError' || name === 'ConstraintError'))
    return 'WEBAUTHN_UNSUPPORTED'
  // SecurityError (an IP address or a foreign RP ID), TypeError, UnknownError, anything else.
  return 'PASSKEY_UNKNOWN_ERROR'
}

/**
 * Translates whatever a WebAuthn ceremony threw into a LatchkeyError:
 * NotAllowedError / AbortError / a timeout → PASSKEY_FAILED ('Passkey request
 * timed out or rejected by user.'); an authenticator that already holds a
 * passkey of this account (InvalidStateError) → PASSKEY_ALREADY_LINKED ('This
 * passkey is already linked'); no WebAuthn, or no capable authenticator →
 * WEBAUTHN_UNSUPPORTED; anything else → PASSKEY_UNKNOWN_ERROR ('Unknown error
 * occurred.'). LatchkeyErrors (the server's answers) pass through unchanged.
 *
 * @example
 * try { response = await startRegistration({ optionsJSON }) }
 * catch (error) { throw toPasskeyError(error) }
 */
export function toPasskeyError(error: unknown): LatchkeyError {
  if (error instanceof LatchkeyError) return error
  const name = error instanceof Error || error instanceof DOMException ? error.name : ''
  const message = error instanceof Error || error instanceof DOMException ? error.message : ''
  const raw = (error as { code?: unknown } | null)?.code
  const code = typeof raw === 'string' && raw.startsWith('ERROR_') ? raw : undefined
  const reason =
    code ?? (name === 'InvalidStateError' ? 'ERROR_AUTHENTICATOR_PREVIOUSLY_REGISTERED' : name)
  return new LatchkeyError(codeFor(name, code, message), undefined, {
    cause: error,
    details: { reason: reason || undefined, message: message || undefined },
  })
}
