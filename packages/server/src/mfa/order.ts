import type { MfaMethod } from '@latchkey/protocol'

// A leaf: the user object (users/service.ts) lists MFA methods in this order
// without importing the factor store.

/** The order methods are listed in (spec 02 "Method chooser": authenticator app, SMS, passkey). */
export const MFA_METHOD_ORDER: readonly MfaMethod[] = ['totp', 'sms', 'passkey']

export const byMethodOrder = (a: MfaMethod, b: MfaMethod): number =>
  MFA_METHOD_ORDER.indexOf(a) - MFA_METHOD_ORDER.indexOf(b)
