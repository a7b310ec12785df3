import { routes } from '@latchkey/protocol/routes'
import type {
  MfaStatusResponse,
  MfaVerification,
  PasskeyMfaInitResponse,
  TotpEnrollmentInitResponse,
  UserWire,
} from '@latchkey/protocol/schemas'
import type { LatchkeyClient } from '../client.ts'
import { LatchkeyError } from '../errors.ts'
import { assertWithPasskey, type PasskeyOperationOptions } from '../flows/passkey-ceremony.ts'
import { type MfaMethod, toUser, type User } from '../user.ts'
import { enclaveCall } from '../wallets/enclave.ts'
import { MFA_METHOD_ORDER, withMfa } from './with-mfa.ts'

/*
 * MFA from the host page (docs/mfa.md). Every call that checks a code or
 * changes a factor goes through the enclave, because the server answers
 * those routes only to the enclave's device key: a host-page script or a
 * copied token can neither verify nor change factors.
 */

/** What a verification proves: an authenticator or SMS code, or the user's MFA passkey. */
export type VerifyMfaParameters =
  | { method: 'totp' | 'sms'; code: string }
  | ({ method: 'passkey' } & Pick<PasskeyOperationOptions, 'ceremonies' | 'signal'>)

/**
 * Verifies an MFA factor for this session: key routes then answer for 15
 * minutes (spec 02 §4). A wrong code rejects with MFA_INVALID_CODE ('The code
 * you entered is not valid'); past the server's cap, MFA_MAX_ATTEMPTS with
 * `retryAfter`. A passkey runs the browser's prompt in this page.
 *
 * @example
 * await verifyMfa(client, { method: 'totp', code: '123456' })
 */
export async function verifyMfa(
  client: LatchkeyClient,
  parameters: VerifyMfaParameters,
): Promise<MfaVerification> {
  if (parameters.method !== 'passkey')
    return enclaveCall<MfaVerification>(client, 'latchkey:mfa:verify', {
      request: { method: parameters.method, code: parameters.code },
    })
  const init = await enclaveCall<PasskeyMfaInitResponse>(client, 'latchkey:mfa:init-verify', {
    method: 'passkey',
  })
  const response = await assertWithPasskey(init.options, parameters)
  return enclaveCall<MfaVerification>(client, 'latchkey:mfa:verify', {
    request: {
      method: 'passkey',
      relying_party: init.relying_party,
      authenticator_response: response,
    },
  })
}

/** Sends an SMS code to the user's enrolled phone, for `verifyMfa({ method: 'sms' })`. */
export async function sendMfaSmsCode(client: LatchkeyClient): Promise<void> {
  await enclaveCall(client, 'latchkey:mfa:init-verify', { method: 'sms' })
}

/** What an authenticator app is set up from: the QR code's URI and the key to type instead. */
export interface TotpEnrollment {
  /** The base32 setup key. */
  secret: string
  /** The `otpauth://totp/…` URI the QR code shows. */
  authUrl: string
}

/**
 * Starts an authenticator-app setup (spec 02 "Authenticator enrollment").
 * With a factor already enrolled, the user verifies first (spec 02 §4).
 */
export async function initTotpEnrollment(client: LatchkeyClient): Promise<TotpEnrollment> {
  const answer = await withMfa(client, () =>
    enclaveCall<TotpEnrollmentInitResponse>(client, 'latchkey:mfa:init-enrollment', {
      request: { method: 'totp' },
    }),
  )
  return { secret: answer.secret, authUrl: answer.auth_url }
}

/** Sends an enrollment code to `phoneNumber` (spec 02 "SMS enrollment"). */
export async function initSmsEnrollment(
  client: LatchkeyClient,
  { phoneNumber }: { phoneNumber: string },
): Promise<void> {
  await withMfa(client, () =>
    enclaveCall(client, 'latchkey:mfa:init-enrollment', {
      request: { method: 'sms', phone_number: phoneNumber },
    }),
  )
}

export type SubmitMfaEnrollmentParameters =
  | { method: 'totp'; code: string }
  | { method: 'sms'; phoneNumber: string; code: string }
  | { method: 'passkey'; credentialIds: string[] }

/**
 * Confirms a setup: the authenticator's or the SMS code, or the linked
 * passkeys to enable. A code setup also verifies this session.
 *
 * @example
 * const user = await submitMfaEnrollment(client, { method: 'totp', code })
 */
export async function submitMfaEnrollment(
  client: LatchkeyClient,
  parameters: SubmitMfaEnrollmentParameters,
): Promise<User> {
  const request =
    parameters.method === 'totp'
      ? { method: 'totp', code: parameters.code }
      : parameters.method === 'sms'
        ? { method: 'sms', phone_number: parameters.phoneNumber, code: parameters.code }
        : { method: 'passkey', credential_ids: parameters.credentialIds }
  const answer = await withMfa(client, () =>
    enclaveCall<{ user: UserWire }>(client, 'latchkey:mfa:submit-enrollment', { request }),
  )
  return updateUser(client, answer.user)
}

export interface UnenrollMfaParameters {
  method: MfaMethod
  /** A passkey: which one (default: every MFA passkey). */
  credentialId?: string
  /** A passkey: also unlink it as a login (`passkeys.shouldUnlinkOnUnenrollMfa`). */
  removeForLogin?: boolean
}

/** Removes an MFA method, after a fresh verification (spec 02 "Removal confirmations"). */
export async function unenrollMfa(
  client: LatchkeyClient,
  { method, credentialId, removeForLogin }: UnenrollMfaParameters,
): Promise<User> {
  const request =
    method === 'passkey'
      ? {
          method,
          ...(credentialId === undefined ? {} : { credential_id: credentialId }),
          ...(removeForLogin === undefined ? {} : { remove_for_login: removeForLogin }),
        }
      : { method }
  const answer = await withMfa(client, () =>
    enclaveCall<{ user: UserWire }>(client, 'latchkey:mfa:unenroll', { request }),
  )
  return updateUser(client, answer.user)
}

/** Spec 02 §7 "clear MFA": ends this session's verification (and the enclave's warm keys). */
export async function clearMfa(client: LatchkeyClient): Promise<void> {
  await enclaveCall(client, 'latchkey:mfa:clear', {})
}

export interface MfaStatus {
  /** The user's enabled methods. */
  methods: MfaMethod[]
  /** When this session's verification ends, or null when it has none. */
  verifiedUntil: Date | null
}

/** The user's MFA methods and this session's verification window. */
export async function getMfaStatus(client: LatchkeyClient): Promise<MfaStatus> {
  const status = await client.authedRequest<MfaStatusResponse>(routes.mfa)
  return {
    methods: MFA_METHOD_ORDER.filter((m) => status.factors.some((f) => f.method === m)),
    verifiedUntil: status.verified_until === null ? null : new Date(status.verified_until * 1000),
  }
}

/** Key routes need this much of the window left to be worth starting (an export page, say). */
const WINDOW_MARGIN_MS = 30_000

/**
 * Makes sure this session is verified before something that reads a key
 * outside the enclave's own calls (the export page): a user with MFA and no
 * open window verifies first, through the prompter.
 */
export async function ensureMfaVerified(client: LatchkeyClient): Promise<void> {
  if ((client.session.getState().user?.mfaMethods.length ?? 0) === 0) return
  await withMfa(client, async () => {
    const status = await getMfaStatus(client)
    if (status.methods.length === 0) return
    const until = status.verifiedUntil?.getTime() ?? 0
    if (until - Date.now() > WINDOW_MARGIN_MS) return
    throw new LatchkeyError('MFA_REQUIRED', undefined, {
      details: { mfa_methods: status.methods },
    })
  })
}

function updateUser(client: LatchkeyClient, wire: UserWire): User {
  const user = toUser(wire)
  client.session.setUser(user)
  return user
}
