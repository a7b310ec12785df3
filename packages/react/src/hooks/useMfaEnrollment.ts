import {
  initSmsEnrollment,
  initTotpEnrollment,
  LatchkeyError,
  type MfaMethod,
  submitMfaEnrollment,
  type TotpEnrollment,
  type User,
  unenrollMfa,
} from '@latchkey/core'
import { useCallback, useMemo } from 'react'
import { useLatchkeyInstance } from '../context.ts'
import { useResolvedConfig } from './useResolvedConfig.ts'

export interface UseMfaEnrollmentReturnType {
  /**
   * Opens 'Transaction Protection' (spec 02 "Multi-factor enrollment and
   * management"): the method list, setup and removal. Resolves when the user
   * closes it.
   */
  showMfaEnrollmentModal(): Promise<void>
  /** The authenticator app's setup key and `otpauth://` URI (for a QR code). */
  initEnrollmentWithTotp(): Promise<TotpEnrollment>
  submitEnrollmentWithTotp(parameters: { code: string }): Promise<User>
  /** Sends an enrollment code to the phone. */
  initEnrollmentWithSms(parameters: { phoneNumber: string }): Promise<void>
  submitEnrollmentWithSms(parameters: { phoneNumber: string; code: string }): Promise<User>
  /** Enables linked passkeys as MFA. */
  submitEnrollmentWithPasskey(parameters: { credentialIds: string[] }): Promise<User>
  /** Removes a method; a passkey follows `passkeys.shouldUnlinkOnUnenrollMfa` unless told. */
  unenroll(
    method: MfaMethod,
    options?: { credentialId?: string; removeForLogin?: boolean },
  ): Promise<User>
}

/**
 * MFA enrollment: the modal's screens, or single steps for an app's own UI.
 * Changing factors while the user has one asks for a verification first
 * (the modal's, or `useMfa` with `noPromptOnMfaRequired`).
 *
 * @example
 * const { showMfaEnrollmentModal } = useMfaEnrollment()
 * <button onClick={() => showMfaEnrollmentModal()}>Protect my wallet</button>
 */
export function useMfaEnrollment(): UseMfaEnrollmentReturnType {
  const instance = useLatchkeyInstance()
  const { client } = instance
  const { unlinkPasskeyOnMfaRemoval } = useResolvedConfig(instance)
  const showMfaEnrollmentModal = useCallback(async () => {
    if (client.session.getState().status !== 'authenticated')
      throw new LatchkeyError('NOT_AUTHENTICATED')
    await instance.openWalletScreen<void>({ screen: 'mfa-enrollment' }).catch(() => {})
  }, [client, instance])
  const unenroll = useCallback(
    (method: MfaMethod, options: { credentialId?: string; removeForLogin?: boolean } = {}) =>
      unenrollMfa(client, {
        method,
        credentialId: options.credentialId,
        removeForLogin:
          method === 'passkey' ? (options.removeForLogin ?? unlinkPasskeyOnMfaRemoval) : undefined,
      }),
    [client, unlinkPasskeyOnMfaRemoval],
  )
  return useMemo(
    () => ({
      showMfaEnrollmentModal,
      initEnrollmentWithTotp: () => initTotpEnrollment(client),
      submitEnrollmentWithTotp: ({ code }) => submitMfaEnrollment(client, { method: 'totp', code }),
      initEnrollmentWithSms: (parameters) => initSmsEnrollment(client, parameters),
      submitEnrollmentWithSms: ({ phoneNumber, code }) =>
        submitMfaEnrollment(client, { method: 'sms', phoneNumber, code }),
      submitEnrollmentWithPasskey: ({ credentialIds }) =>
        submitMfaEnrollment(client, { method: 'passkey', credentialIds }),
      unenroll,
    }),
    [client, showMfaEnrollmentModal, unenroll],
  )
}
