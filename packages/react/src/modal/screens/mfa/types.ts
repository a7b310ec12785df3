import type { PasskeyAccount, User } from '@latchkey/core'

/** A multi-factor method (spec 02 §3 "mfaMethods"): 'sms', 'totp' or 'passkey'. */
export type MfaMethod = User['mfaMethods'][number]

/** The methods verified with a six-digit code. */
export type MfaCodeMethod = Exclude<MfaMethod, 'passkey'>

/**
 * What the transaction-level verification (spec 02 "Multi-factor
 * verification") needs from its parent. Every action may reject with a
 * `LatchkeyError`; once `submitCode` or `verifyWithPasskey` resolves the
 * verification is done and the parent closes the flow.
 */
export interface MfaVerifyProps {
  /** The user's methods, any order; the chooser shows them in the spec's order. */
  methods: MfaMethod[]
  /** The user's MFA passkeys (for 'Passkey added on …'). */
  passkeys: PasskeyAccount[]
  /** The enrolled phone, masked, if known: 'Enter the code sent to •••• 1234'. */
  phoneHint?: string
  /** Sends an SMS code to the enrolled phone (on entering the SMS code screen, and 'Resend code'). */
  sendSmsCode(): Promise<void>
  submitCode(method: MfaCodeMethod, code: string): Promise<void>
  verifyWithPasskey(): Promise<void>
  /** 'Cancel', the close icon, or Close after a blocking error. */
  onCancel(): void
}

/**
 * What MFA enrollment and management (spec 02 "Multi-factor enrollment and
 * management") needs from its parent. After each action the parent passes
 * the refreshed `enabledMethods` and `passkeys`: the flow renders from
 * props and keeps only where the user is.
 */
export interface MfaEnrollmentProps {
  /** The app's `mfa_methods`. */
  allowedMethods: MfaMethod[]
  /** The user's enabled methods. */
  enabledMethods: MfaMethod[]
  /** The user's linked passkeys (with `enrolledInMfa`). */
  passkeys: PasskeyAccount[]
  /** The user's phone is a login method: SMS cannot be a second factor (spec 02 §6). */
  smsUnavailable: boolean
  initTotp(): Promise<{ secret: string; authUrl: string }>
  submitTotp(code: string): Promise<void>
  /** Sends a code to the phone being enrolled (E.164). */
  initSms(phoneNumber: string): Promise<void>
  submitSms(phoneNumber: string, code: string): Promise<void>
  enablePasskeys(credentialIds: string[]): Promise<void>
  /** Links a new passkey (the browser prompt) and answers it. */
  addPasskey(): Promise<PasskeyAccount>
  /** Without `credentialId`, a passkey removal takes every MFA passkey. */
  unenroll(method: MfaMethod, credentialId?: string): Promise<void>
  /** 'Not now', Done on the list, the close icon. */
  onClose(): void
  /** Start at the method list instead of the 'Transaction Protection' intro. */
  skipIntro?: boolean
}
