import type { MfaMethod } from './types.ts'

/** Each method in plain words, wherever the modal names one. */
export const mfaMethodLabels: Readonly<Record<MfaMethod, string>> = {
  totp: 'Authenticator app',
  sms: 'SMS',
  passkey: 'Passkey',
}

/** Spec 02 "Multi-factor verification": the chooser offers authenticator app, SMS, passkey. */
export const VERIFY_ORDER: readonly MfaMethod[] = ['totp', 'sms', 'passkey']

/** Spec 02 / 03 "Method list": passkey, authenticator app, SMS. */
export const ENROLL_ORDER: readonly MfaMethod[] = ['passkey', 'totp', 'sms']

/** `methods` in `order`, each once, unknown values dropped. */
export const inOrder = (methods: readonly MfaMethod[], order: readonly MfaMethod[]) =>
  order.filter((method) => methods.includes(method))
