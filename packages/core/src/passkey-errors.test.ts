import { WebAuthnError, type WebAuthnErrorCode } from '@simplewebauthn/browser'
import { describe, expect, it } from 'vitest'
import { LatchkeyError } from './errors.ts'
import { toPasskeyError } from './passkey-errors.ts'

const dom = (name: string, message = 'the browser said no') => new DOMException(message, name)
/** What `@simplewebauthn/browser` throws: the DOMException's name, a code for the spec step. */
const wrapped = (code: WebAuthnErrorCode, name: string) =>
  new WebAuthnError({ message: 'wrapped', code, cause: dom(name), name })

describe('toPasskeyError', () => {
  it.each([
    ['NotAllowedError (cancelled, or timed out)', dom('NotAllowedError')],
    ['AbortError', dom('AbortError')],
    ['TimeoutError', dom('TimeoutError')],
    [
      "simplewebauthn's NotAllowedError passthrough",
      wrapped('ERROR_PASSTHROUGH_SEE_CAUSE_PROPERTY', 'NotAllowedError'),
    ],
    ['an aborted ceremony', wrapped('ERROR_CEREMONY_ABORTED', 'AbortError')],
  ])('%s → PASSKEY_FAILED', (_, error) => {
    const translated = toPasskeyError(error)
    expect(translated.code).toBe('PASSKEY_FAILED')
    expect(translated.userMessage.title).toBe('Passkey request timed out or rejected by user.')
    expect(translated.userMessage.retryable).toBe(true)
    expect(translated.cause).toBe(error)
  })

  it('an authenticator that already holds a passkey of this account → PASSKEY_ALREADY_LINKED (issue 16, 4)', () => {
    for (const error of [
      dom('InvalidStateError'),
      wrapped('ERROR_AUTHENTICATOR_PREVIOUSLY_REGISTERED', 'InvalidStateError'),
    ]) {
      const translated = toPasskeyError(error)
      expect(translated.code).toBe('PASSKEY_ALREADY_LINKED')
      expect(translated.userMessage.title).toBe('This passkey is already linked')
      expect(translated.userMessage.title).not.toBe(
        toPasskeyError(dom('NotAllowedError')).userMessage.title,
      )
      expect(translated.details).toMatchObject({
        reason: 'ERROR_AUTHENTICATOR_PREVIOUSLY_REGISTERED',
      })
    }
  })

  it.each([
    ['no PublicKeyCredential', new Error('WebAuthn is not supported in this browser')],
    ['NotSupportedError', dom('NotSupportedError')],
    ['ConstraintError', dom('ConstraintError')],
    [
      'no resident keys',
      wrapped('ERROR_AUTHENTICATOR_MISSING_DISCOVERABLE_CREDENTIAL_SUPPORT', 'ConstraintError'),
    ],
    [
      'no user verification',
      wrapped('ERROR_AUTHENTICATOR_MISSING_USER_VERIFICATION_SUPPORT', 'ConstraintError'),
    ],
    [
      'no supported algorithm',
      wrapped('ERROR_AUTHENTICATOR_NO_SUPPORTED_PUBKEYCREDPARAMS_ALG', 'NotSupportedError'),
    ],
  ])('%s → WEBAUTHN_UNSUPPORTED', (_, error) => {
    const translated = toPasskeyError(error)
    expect(translated.code).toBe('WEBAUTHN_UNSUPPORTED')
    expect(translated.userMessage.title).toBe('WebAuthn is not supported in this browser')
  })

  it.each([
    ['SecurityError (an IP address as RP ID)', wrapped('ERROR_INVALID_DOMAIN', 'SecurityError')],
    ['a bad RP ID', wrapped('ERROR_INVALID_RP_ID', 'SecurityError')],
    ['UnknownError', dom('UnknownError')],
    [
      'malformed options from the server',
      wrapped('ERROR_MALFORMED_PUBKEYCREDPARAMS', 'NotSupportedError'),
    ],
    ['a TypeError', new TypeError('bad')],
    ['a string', 'boom'],
    ['undefined', undefined],
  ])('%s → PASSKEY_UNKNOWN_ERROR', (_, error) => {
    const translated = toPasskeyError(error)
    expect(translated.code).toBe('PASSKEY_UNKNOWN_ERROR')
    expect(translated.userMessage.title).toBe('Unknown error occurred.')
  })

  it("passes the server's LatchkeyErrors through unchanged", () => {
    const limit = new LatchkeyError('PASSKEY_LINK_LIMIT', undefined, { status: 400 })
    expect(toPasskeyError(limit)).toBe(limit)
  })
})
