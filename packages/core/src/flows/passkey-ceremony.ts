import type {
  PasskeyAuthenticateRequest,
  PasskeyInitResponse,
  PasskeyRegisterRequest,
} from '@latchkey/protocol/schemas'
import type {
  AuthenticationResponseJSON,
  PublicKeyCredentialCreationOptionsJSON,
  PublicKeyCredentialRequestOptionsJSON,
  RegistrationResponseJSON,
} from '@simplewebauthn/browser'
import { LatchkeyError } from '../errors.ts'
import { toPasskeyError } from '../passkey-errors.ts'

/*
 * The browser's half of a WebAuthn ceremony (passkey login, sign-up, link
 * and MFA verification): `@simplewebauthn/browser`, imported only when a
 * ceremony starts, behind a replaceable interface, with abort handling and
 * the wire forms of its answers.
 */

/** The browser's side of a WebAuthn ceremony; tests and exotic hosts may bring their own. */
export interface PasskeyCeremonies {
  /** Whether this browser has WebAuthn at all (spec 01 §5). */
  isSupported(): boolean
  /** `navigator.credentials.create()` with the server's options, as JSON. */
  create(options: PublicKeyCredentialCreationOptionsJSON): Promise<RegistrationResponseJSON>
  /** `navigator.credentials.get()` with the server's options, as JSON. */
  get(options: PublicKeyCredentialRequestOptionsJSON): Promise<AuthenticationResponseJSON>
  /** Dismisses the browser's prompt of the ceremony under way, if any. */
  cancel(): void
}

/** Spec 01 §5: "A passkey flow needs browser WebAuthn support." */
export function isWebAuthnSupported(): boolean {
  return typeof globalThis.PublicKeyCredential === 'function'
}

type SimpleWebAuthn = typeof import('@simplewebauthn/browser')
let simpleWebAuthn: Promise<SimpleWebAuthn> | null = null
const loadSimpleWebAuthn = () => {
  simpleWebAuthn ??= import('@simplewebauthn/browser').catch((error: unknown) => {
    simpleWebAuthn = null // a failed chunk load may succeed next time
    throw error
  })
  return simpleWebAuthn
}

/** The default ceremonies: `@simplewebauthn/browser`, loaded on first use. */
export const browserPasskeyCeremonies: PasskeyCeremonies = {
  isSupported: isWebAuthnSupported,
  async create(optionsJSON) {
    return (await loadSimpleWebAuthn()).startRegistration({ optionsJSON })
  },
  async get(optionsJSON) {
    return (await loadSimpleWebAuthn()).startAuthentication({ optionsJSON })
  },
  cancel() {
    void simpleWebAuthn?.then((lib) => lib.WebAuthnAbortService.cancelCeremony()).catch(() => {})
  },
}

/** The steps between a click and the server's answer (spec 01 §4 "Passkey"). */
export type PasskeyStep = 'generating-challenge' | 'awaiting-passkey' | 'submitting-response'

export interface PasskeyOperationOptions {
  /** Reports each step as it starts, for a status screen. */
  onStep?(step: PasskeyStep): void
  /** Abandons the operation: the browser's prompt is dismissed and nothing more is sent. */
  signal?: AbortSignal
  /** Default {@link browserPasskeyCeremonies}. */
  ceremonies?: PasskeyCeremonies
}

const abortReason = (signal: AbortSignal): unknown =>
  signal.reason ?? new DOMException('The operation was aborted.', 'AbortError')

export function checkAborted(signal: AbortSignal | undefined) {
  if (signal?.aborted) throw abortReason(signal)
}

/** Runs one browser ceremony: aborting dismisses its prompt; its failures go through toPasskeyError. */
export async function runCeremony<T>(
  ceremonies: PasskeyCeremonies,
  signal: AbortSignal | undefined,
  ceremony: () => Promise<T>,
): Promise<T> {
  checkAborted(signal)
  const onAbort = () => ceremonies.cancel()
  signal?.addEventListener('abort', onAbort, { once: true })
  try {
    return await ceremony()
  } catch (error) {
    checkAborted(signal)
    throw toPasskeyError(error)
  } finally {
    signal?.removeEventListener('abort', onAbort)
  }
}

// `@simplewebauthn/browser`'s response JSON, copied into the protocol's (loose) wire types:
// its interfaces carry no index signature, plain object copies do.
export const attestationWire = (
  json: RegistrationResponseJSON,
): PasskeyRegisterRequest['authenticator_response'] => ({
  ...json,
  response: { ...json.response },
  clientExtensionResults: { ...json.clientExtensionResults },
})
export const assertionWire = (
  json: AuthenticationResponseJSON,
): PasskeyAuthenticateRequest['authenticator_response'] => ({
  ...json,
  response: { ...json.response },
  clientExtensionResults: { ...json.clientExtensionResults },
})

export function requireSupport(ceremonies: PasskeyCeremonies) {
  if (!ceremonies.isSupported()) throw new LatchkeyError('WEBAUTHN_UNSUPPORTED')
}

/**
 * Runs the browser's assertion ceremony on options the server issued (an
 * MFA verification, say) and answers the response in its wire form.
 */
export async function assertWithPasskey(
  options: PasskeyInitResponse['options'],
  { signal, ceremonies = browserPasskeyCeremonies }: PasskeyOperationOptions = {},
): Promise<PasskeyAuthenticateRequest['authenticator_response']> {
  requireSupport(ceremonies)
  const assertion = await runCeremony(ceremonies, signal, () =>
    ceremonies.get(options as unknown as PublicKeyCredentialRequestOptionsJSON),
  )
  checkAborted(signal)
  return assertionWire(assertion)
}
