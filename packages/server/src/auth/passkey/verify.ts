import {
  type AuthenticationResponseJSON,
  type AuthenticatorTransport,
  type RegistrationResponseJSON,
  verifyAuthenticationResponse,
  verifyRegistrationResponse,
} from '@simplewebauthn/server'
import { isoBase64URL } from '@simplewebauthn/server/helpers'
import { passkeyFailed } from './challenges.ts'
import { PASSKEY_ALGORITHMS } from './schema.ts'

/*
 * WebAuthn ceremony checks (security bar 24, WebAuthn §7.1 / §7.2) by
 * @simplewebauthn/server: clientData type, challenge and origin, rpIdHash,
 * UP and UV flags, signature. Every refusal becomes
 * PASSKEY_VERIFICATION_FAILED with a `reason` naming the failed check; the
 * library's message (which echoes client input) is never sent back.
 */

/** What a ceremony must match: the stored challenge's values. */
export interface CeremonyExpectation {
  challenge: string
  /** The page origin, or (MFA: mfa/passkey.ts) the app origins of the RP ID, any of which may answer. */
  origin: string | string[]
  rpId: string
}

/** A newly registered credential, as stored in the account's data. */
export interface RegisteredCredential {
  /** base64url credential id (the account's identifier). */
  id: string
  /** base64url COSE public key. */
  publicKey: string
  counter: number
  transports: string[]
  aaguid: string
  backedUp: boolean
  deviceType: 'singleDevice' | 'multiDevice'
}

/** The stored credential an assertion is checked against. */
export interface StoredCredential {
  id: string
  publicKey: string
  counter: number
  transports?: string[]
}

/** A verified assertion: the authenticator's new signCount and backup state. */
export interface VerifiedAssertion {
  newCounter: number
  backedUp: boolean
}

// Library messages → the check that failed (reported as `reason`).
const REASONS: readonly [RegExp, string][] = [
  [/credential type|response type/i, 'type'],
  [/challenge/i, 'challenge'],
  [/top origin|origin/i, 'origin'],
  [/RP ID/i, 'rp_id'],
  [/presen/i, 'user_presence'],
  [/verif(ied|ication) (was )?required|could not be verified/i, 'user_verification'],
  [/public key alg/i, 'algorithm'],
]

function reasonOf(error: unknown): string {
  const message = error instanceof Error ? error.message : ''
  for (const [pattern, reason] of REASONS) if (pattern.test(message)) return reason
  return 'invalid_response'
}

/** The challenge a response's clientDataJSON names (unverified; used to find the stored row). */
export function claimedChallenge(clientDataJSON: string): string {
  try {
    const data = JSON.parse(isoBase64URL.toUTF8String(clientDataJSON)) as { challenge?: unknown }
    if (typeof data.challenge === 'string' && data.challenge.length > 0) return data.challenge
  } catch {}
  throw passkeyFailed('challenge_unknown')
}

/**
 * Verifies a registration (`navigator.credentials.create()`) response:
 * 'none' attestation accepted, user presence and verification required.
 *
 * @example
 * const credential = await verifyRegistration(body.authenticator_response, { challenge, origin, rpId })
 */
export async function verifyRegistration(
  response: RegistrationResponseJSON,
  expected: CeremonyExpectation,
): Promise<RegisteredCredential> {
  let result: Awaited<ReturnType<typeof verifyRegistrationResponse>>
  try {
    result = await verifyRegistrationResponse({
      response,
      expectedChallenge: expected.challenge,
      expectedOrigin: expected.origin,
      expectedRPID: expected.rpId,
      expectedType: 'webauthn.create',
      requireUserPresence: true,
      requireUserVerification: true,
      supportedAlgorithmIDs: [...PASSKEY_ALGORITHMS],
    })
  } catch (error) {
    throw passkeyFailed(reasonOf(error))
  }
  if (!result.verified) throw passkeyFailed('attestation')
  const info = result.registrationInfo
  // The credential id the authenticator data names is the one we key on.
  if (info.credential.id !== response.id) throw passkeyFailed('credential_id')
  return {
    id: info.credential.id,
    publicKey: isoBase64URL.fromBuffer(info.credential.publicKey),
    counter: info.credential.counter,
    transports: response.response.transports ?? [],
    aaguid: info.aaguid,
    backedUp: info.credentialBackedUp,
    deviceType: info.credentialDeviceType,
  }
}

/**
 * Verifies an assertion (`navigator.credentials.get()`) against the stored
 * credential: user verification required. The signCount rule is left to the
 * caller (it flags a regression only once the signature holds), so the
 * library is given counter 0 and applies none of its own.
 *
 * @example
 * const { newCounter } = await verifyAssertion(body.authenticator_response, expected, stored)
 */
export async function verifyAssertion(
  response: AuthenticationResponseJSON,
  expected: CeremonyExpectation,
  credential: StoredCredential,
): Promise<VerifiedAssertion> {
  let result: Awaited<ReturnType<typeof verifyAuthenticationResponse>>
  try {
    result = await verifyAuthenticationResponse({
      response,
      expectedChallenge: expected.challenge,
      expectedOrigin: expected.origin,
      expectedRPID: expected.rpId,
      expectedType: 'webauthn.get',
      requireUserVerification: true,
      credential: {
        id: credential.id,
        publicKey: isoBase64URL.toBuffer(credential.publicKey),
        counter: 0,
        transports: credential.transports as AuthenticatorTransport[] | undefined,
      },
    })
  } catch (error) {
    throw passkeyFailed(reasonOf(error))
  }
  if (!result.verified) throw passkeyFailed('signature')
  return {
    newCounter: result.authenticationInfo.newCounter,
    backedUp: result.authenticationInfo.credentialBackedUp,
  }
}

/**
 * WebAuthn §7.2 step 22: when either signCount is non-zero, the new one must
 * be greater than the stored one; otherwise the authenticator may be cloned.
 */
export const isCounterRegression = (stored: number, received: number): boolean =>
  (stored > 0 || received > 0) && received <= stored
