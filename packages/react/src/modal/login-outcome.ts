import {
  type AccountTransferInput,
  accountTransferOffer,
  canTransferAccount,
  type LatchkeyError,
  type LoginMethod,
} from '@latchkey/core'
import type { ErrorCode } from '@latchkey/protocol/errors'
import type { Screen } from './screen.ts'

// Spec 02 §8 "Login-outcome screens": failures that end the attempt on the error screen,
// whichever method or step they come from (catalogue wording: 'Not allowed' / 'Try
// another method', 'Too many requests…', 'This region is not supported').
const OUTCOME_ERRORS: ReadonlySet<ErrorCode> = new Set<ErrorCode>([
  'LOGIN_METHOD_NOT_ALLOWED',
  'TOO_MANY_REQUESTS',
  'REGION_NOT_SUPPORTED',
])

// Code failures that no other code can fix; the rest stay on the code screen.
const FATAL_SUBMIT_ERRORS: ReadonlySet<ErrorCode> = new Set<ErrorCode>([
  'LOGIN_METHOD_NOT_ALLOWED',
  'ACCOUNT_ALREADY_LINKED',
  'APP_NOT_FOUND',
  'ORIGIN_NOT_ALLOWED',
  // A link of a second email or phone: the server's message says so (spec 01 §8).
  'CANNOT_LINK_MORE_OF_TYPE',
  // An update of an address or number the user does not have (spec 02 §5).
  'NO_EMAIL_TO_UPDATE',
  'NO_PHONE_TO_UPDATE',
])

/**
 * The error screen for `error`: its code, and the server's message where
 * spec 01 §8 shows it (a 400/422 the catalogue defers, or an unknown code).
 */
export const errorScreen = (error: LatchkeyError): Screen =>
  error.serverMessage
    ? { screen: 'error', code: error.code, serverMessage: error.serverMessage }
    : { screen: 'error', code: error.code }

/** The account a failed attempt was about: what a transfer offer needs to move it. */
export interface AttemptedAccount {
  loginMethod: LoginMethod
  account: AccountTransferInput
}

/**
 * Spec 02 §8 "Login-outcome screens": the screen a failure of any method
 * leads to, or null when the method's own screen shows it. A link that
 * met another user's only login method offers the transfer when the
 * account can be named for the transfer call; otherwise it is refused.
 *
 * @example
 * setScreen(outcomeScreen(error, undefined, false) ?? errorScreen(error))
 */
export function outcomeScreen(
  error: LatchkeyError,
  attempt: AttemptedAccount | undefined,
  linking: boolean,
): Screen | null {
  const offer = accountTransferOffer(error)
  if (offer && attempt && linking && canTransferAccount(offer, attempt.account))
    return { screen: 'account-transfer', offer, ...attempt }
  if (error.code === 'ACCOUNT_TRANSFER_REQUIRED')
    return { screen: 'error', code: 'ACCOUNT_ALREADY_LINKED' }
  if (error.code === 'USER_DOES_NOT_EXIST') return { screen: 'account-not-found' }
  if (error.code === 'ALLOWLIST_REJECTED') return { screen: 'allowlist-rejected' }
  if (error.code === 'USER_LIMIT_REACHED') return { screen: 'user-limit' }
  if (OUTCOME_ERRORS.has(error.code)) return errorScreen(error)
  return null
}

/**
 * A failed code check or resend (email, SMS): its outcome screen, the error
 * screen when no other code can fix it, else null (the code screen shows it).
 */
export const codeFailureScreen = (
  error: LatchkeyError,
  attempt: AttemptedAccount | undefined,
  linking: boolean,
): Screen | null =>
  outcomeScreen(error, attempt, linking) ??
  (FATAL_SUBMIT_ERRORS.has(error.code) ? errorScreen(error) : null)
