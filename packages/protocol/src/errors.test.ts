import { describe, expect, it } from 'vitest'
import {
  ErrorCode,
  errorMessages,
  errorStatus,
  NO_PASSKEY_HINT,
  type UserMessage,
  userMessageLine,
} from './errors.ts'

// Tracker issue 16, item 4d: a code the product knows says what happened (and,
// where it can, what to do), never the catch-all 'Something went wrong' / 'Try
// again later' — unless the spec prescribes exactly that text for that case.

/** The catch-all wording of spec 01 §8 "Others" and its variants. */
const GENERIC = [/something went wrong/i, /try again later/i]
const isGeneric = (text: string | undefined) =>
  text !== undefined && GENERIC.some((pattern) => pattern.test(text))

/**
 * The codes whose generic wording the spec itself dictates, with that exact
 * wording (the test pins it, so a change is a decision, not an accident).
 */
const SPEC_MANDATED_GENERIC: Partial<Record<ErrorCode, UserMessage>> = {
  // Spec 01 §8 (line 182): "Invalid data, cannot link more of this type, invalid credentials
  // and captcha failure: 'Something went wrong. Try again.' (retryable)." (Cannot link more
  // of a type shows the server's message instead, as line 183 says: see below.)
  INVALID_PAYLOAD: { title: 'Something went wrong. Try again.', retryable: true },
  PASSKEY_VERIFICATION_FAILED: { title: 'Something went wrong. Try again.', retryable: true },
  // Spec 01 §8 (line 187): "Captcha: … timeout 'Something went wrong! Please try again later.'"
  CAPTCHA_TIMEOUT: { title: 'Something went wrong! Please try again later.', retryable: true },
  // Spec 03 §2 "Connect wallet": "On failure: 'Something went wrong. We’re on it. Please try
  // again later.' and a Close button." (The action rejects with the cause's own code.)
  EMBEDDED_WALLET_CONNECT_FAILED: {
    title: 'Something went wrong. We’re on it. Please try again later.',
  },
  // Spec 02 §8 (line 168): "OAuth: … retryable generic text for unexpected provider errors."
  OAUTH_PROVIDER_ERROR: { title: 'Something went wrong. Try again.', retryable: true },
  // Spec 01 §8 (line 188): "Others: 'Something went wrong', 'Try again later'." — the code for
  // a failure nobody named (an unexpected server error, anything thrown that is not ours).
  INTERNAL_ERROR: { title: 'Something went wrong', detail: 'Try again later' },
  // Spec 03 §8 "Funding": the provider failure (or 3 failed status polls) and any other
  // failed funding step, each in the spec's own words.
  FUNDING_PROVIDER_FAILED: {
    title:
      'Something went wrong adding funds from Moonpay. Please try again or use another method to fund your wallet.',
    retryable: true,
  },
  FUNDING_FAILED: {
    title: 'Something went wrong adding funds. Please try again or use another method.',
    retryable: true,
  },
}

const codes = Object.values(ErrorCode)

describe('the error catalogue', () => {
  it('has wording for every code, keyed by itself', () => {
    expect(Object.keys(ErrorCode).every((key) => ErrorCode[key as ErrorCode] === key)).toBe(true)
    expect(Object.keys(errorMessages).sort()).toEqual([...codes].sort())
    for (const code of codes) expect(errorMessages[code].title.trim()).not.toBe('')
  })

  it.each(codes.filter((code) => !(code in SPEC_MANDATED_GENERIC)))(
    '%s says something specific, not the catch-all',
    (code) => {
      const { title, detail } = errorMessages[code]
      expect(isGeneric(title), `title: ${title}`).toBe(false)
      expect(isGeneric(detail), `detail: ${detail}`).toBe(false)
    },
  )

  it.each(Object.entries(SPEC_MANDATED_GENERIC))(
    '%s keeps the generic wording the spec dictates for it',
    (code, message) => {
      expect(errorMessages[code as ErrorCode]).toEqual(message)
    },
  )
})

describe('messages that say what to do (issue 16, 4a, 4b)', () => {
  it('the last login method: that it cannot go, and what to do first', () => {
    expect(errorMessages.CANNOT_UNLINK_LAST_ACCOUNT).toEqual({
      title: "You can't remove your only login method",
      detail: 'Link another login method first.',
    })
    expect(errorStatus.CANNOT_UNLINK_LAST_ACCOUNT).toBe(400)
  })

  it('a passkey already linked reads apart from a refused or timed-out prompt', () => {
    expect(errorMessages.PASSKEY_ALREADY_LINKED.title).toBe('This passkey is already linked')
    expect(errorMessages.PASSKEY_FAILED.title).toBe(
      'Passkey request timed out or rejected by user.',
    )
    expect(errorStatus.PASSKEY_ALREADY_LINKED).toBe(400)
    // The hint under a refused passkey login names the no-passkey case either way.
    expect(NO_PASSKEY_HINT.signup).toMatch(/^No passkey for this app on this device\?/)
    expect(NO_PASSKEY_HINT.login).toMatch(/^No passkey for this app on this device\?/)
  })
})

describe("the server's own words (spec 01 §8, issue 17)", () => {
  it('cannot link more of a type defers to the server, and offers no pointless Retry', () => {
    expect(errorMessages.CANNOT_LINK_MORE_OF_TYPE).toEqual({
      title: 'Only one account of this type can be linked.',
      fromServer: true,
    })
    // Only codes the spec says show the server's message do.
    expect(codes.filter((code) => errorMessages[code].fromServer)).toEqual([
      'CANNOT_LINK_MORE_OF_TYPE',
    ])
  })

  it('updating an address the user does not have, and an overlong code, read as the spec says', () => {
    expect(errorMessages.NO_EMAIL_TO_UPDATE.title).toBe(
      'User is required to have an email address to update it.',
    )
    expect(errorMessages.NO_PHONE_TO_UPDATE.title).toBe(
      'User is required to have a phone number to update it.',
    )
    expect(errorStatus.NO_EMAIL_TO_UPDATE).toBe(400)
    expect(errorStatus.NO_PHONE_TO_UPDATE).toBe(400)
    expect(errorMessages.CODE_TOO_LONG.title).toBe('Passcode must be exactly 6 numbers')
  })
})

describe('userMessageLine', () => {
  it('joins title and detail as sentences', () => {
    expect(userMessageLine(errorMessages.CANNOT_UNLINK_LAST_ACCOUNT)).toBe(
      "You can't remove your only login method. Link another login method first.",
    )
    expect(userMessageLine({ title: 'Done!', detail: 'Close.' })).toBe('Done! Close.')
    expect(userMessageLine(errorMessages.INVALID_CODE)).toBe('Invalid or expired verification code')
  })
})
