import { MFA_OPERATION_ATTEMPTS } from '@latchkey/protocol/constants'
import type { LatchkeyClient } from '../client.ts'
import { LatchkeyError } from '../errors.ts'
import type { MfaMethod } from '../user.ts'
import { getMfaPrompter } from './prompter.ts'

/** The spec's chooser order (spec 02 §2): authenticator app, SMS, passkey. */
export const MFA_METHOD_ORDER: readonly MfaMethod[] = ['totp', 'sms', 'passkey']
const isMethod = (value: unknown): value is MfaMethod =>
  typeof value === 'string' && (MFA_METHOD_ORDER as readonly string[]).includes(value)

/** The methods an MFA_REQUIRED answer names, else the user's, in the chooser's order. */
export function methodsToVerify(client: LatchkeyClient, error: LatchkeyError): MfaMethod[] {
  const details = error.details as
    | { mfa_methods?: unknown; details?: { mfa_methods?: unknown } }
    | undefined
  const named = details?.mfa_methods ?? details?.details?.mfa_methods
  const methods = Array.isArray(named)
    ? named.filter(isMethod)
    : (client.session.getState().user?.mfaMethods ?? [])
  return MFA_METHOD_ORDER.filter((method) => methods.includes(method))
}

/**
 * Runs a wallet operation; when the server wants MFA (MFA_REQUIRED), waits
 * for the user to verify (the client's prompter: the modal, or the app's
 * `useMfa`) and runs it again, up to 4 verifications per operation (spec 02
 * §4), then MFA_MAX_ATTEMPTS.
 */
export async function withMfa<T>(client: LatchkeyClient, operation: () => Promise<T>): Promise<T> {
  let attemptsLeft = MFA_OPERATION_ATTEMPTS
  for (;;) {
    try {
      return await operation()
    } catch (error) {
      if (!(error instanceof LatchkeyError) || error.code !== 'MFA_REQUIRED') throw error
      attemptsLeft = await getMfaPrompter(client).challenge(
        methodsToVerify(client, error),
        attemptsLeft,
        error,
      )
    }
  }
}
