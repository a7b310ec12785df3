import { MAX_PASSKEYS_PER_USER } from '@latchkey/protocol/constants'
import { routes } from '@latchkey/protocol/routes'
import type {
  AuthMode,
  PasskeyAuthenticateRequest,
  PasskeyInitResponse,
  PasskeyLinkRequest,
  PasskeyRegisterRequest,
  PasskeyUnlinkRequest,
  UserWire,
} from '@latchkey/protocol/schemas'
import type {
  PublicKeyCredentialCreationOptionsJSON,
  PublicKeyCredentialRequestOptionsJSON,
} from '@simplewebauthn/browser'
import type { LatchkeyClient } from '../client.ts'
import { type LatchkeyError, toLatchkeyError } from '../errors.ts'
import { unenrollMfa } from '../mfa/mfa.ts'
import { toPasskeyError } from '../passkey-errors.ts'
import { setRecentLoginMethod } from '../recent-login.ts'
import { type PasskeyAccount, toUser, type User } from '../user.ts'
import { loginRequest } from './login-request.ts'
import {
  assertionWire,
  attestationWire,
  browserPasskeyCeremonies,
  checkAborted,
  type PasskeyCeremonies,
  type PasskeyOperationOptions,
  type PasskeyStep,
  requireSupport,
  runCeremony,
} from './passkey-ceremony.ts'

export {
  assertWithPasskey,
  browserPasskeyCeremonies,
  isWebAuthnSupported,
  type PasskeyCeremonies,
  type PasskeyOperationOptions,
  type PasskeyStep,
} from './passkey-ceremony.ts'

/*
 * Passkeys in the browser (spec 01 §2 "Passkey", §4, §7; spec 02 "Passkey
 * management"): the server hands out WebAuthn options bound to this origin's
 * host as relying party, the browser runs the ceremony, the server verifies
 * the attestation (sign-up, link) or the assertion (login). The ceremony code,
 * `@simplewebauthn/browser`, is imported only when a ceremony starts, so apps
 * that never use passkeys never load it.
 */

/** Spec 01 §5, §9: a user holds at most this many passkeys (the server enforces it: PASSKEY_LINK_LIMIT). */
export const PASSKEY_LIMIT = MAX_PASSKEYS_PER_USER

export interface LoginWithPasskeyParameters extends PasskeyOperationOptions {
  /** `no-signup` when sign-up is disabled (spec 01 §5). */
  mode?: AuthMode
}

export interface LoginWithPasskeyReturnType {
  user: User
  isNewUser: boolean
}

/** The captcha token, when the app has a captcha (docs/captcha.md), as the init body's `token`. */
async function captchaBody(client: LatchkeyClient): Promise<{ token?: string }> {
  const token = await client.captchaToken()
  return token === undefined ? {} : { token }
}

/**
 * Signs up with a new passkey: the server's registration options, the
 * browser's `navigator.credentials.create()`, then the server creates the user
 * and answers with a session, which is stored.
 *
 * @example
 * const { user, isNewUser } = await signupWithPasskey(client)
 */
export async function signupWithPasskey(
  client: LatchkeyClient,
  { onStep, signal, ceremonies = browserPasskeyCeremonies }: PasskeyOperationOptions = {},
): Promise<LoginWithPasskeyReturnType> {
  requireSupport(ceremonies)
  onStep?.('generating-challenge')
  const init = await client.http.request<PasskeyInitResponse>(routes.passkeyRegisterInit, {
    body: await captchaBody(client),
    auth: false,
  })
  onStep?.('awaiting-passkey')
  const attestation = await runCeremony(ceremonies, signal, () =>
    ceremonies.create(init.options as unknown as PublicKeyCredentialCreationOptionsJSON),
  )
  checkAborted(signal)
  onStep?.('submitting-response')
  const body: PasskeyRegisterRequest = {
    relying_party: init.relying_party,
    authenticator_response: attestationWire(attestation),
  }
  const response = await loginRequest(client, routes.passkeyRegister, body)
  const user = client.session.applyAuthResponse(response)
  setRecentLoginMethod(client.storage, client.appId, 'passkey')
  return { user, isNewUser: response.is_new_user }
}

/**
 * Logs in with a passkey the browser or a phone already holds: the server's
 * challenge, the browser's `navigator.credentials.get()` (the user picks a
 * passkey), then the server checks the signature and answers with a session.
 *
 * @example
 * const { user } = await loginWithPasskey(client, { mode: 'no-signup' })
 */
export async function loginWithPasskey(
  client: LatchkeyClient,
  {
    mode = 'login-or-sign-up',
    onStep,
    signal,
    ceremonies = browserPasskeyCeremonies,
  }: LoginWithPasskeyParameters = {},
): Promise<LoginWithPasskeyReturnType> {
  requireSupport(ceremonies)
  onStep?.('generating-challenge')
  const init = await client.http.request<PasskeyInitResponse>(routes.passkeyAuthenticateInit, {
    body: await captchaBody(client),
    auth: false,
  })
  onStep?.('awaiting-passkey')
  const assertion = await runCeremony(ceremonies, signal, () =>
    ceremonies.get(init.options as unknown as PublicKeyCredentialRequestOptionsJSON),
  )
  checkAborted(signal)
  onStep?.('submitting-response')
  const body: PasskeyAuthenticateRequest = {
    relying_party: init.relying_party,
    challenge: init.options.challenge,
    authenticator_response: assertionWire(assertion),
    mode,
  }
  const response = await loginRequest(client, routes.passkeyAuthenticate, body)
  const user = client.session.applyAuthResponse(response)
  setRecentLoginMethod(client.storage, client.appId, 'passkey')
  return { user, isNewUser: response.is_new_user }
}

/**
 * Links a new passkey to the logged-in user (up to 5; a sixth is refused
 * with 'Cannot link more passkeys to account.'). The server's options exclude
 * the user's existing passkeys, so an authenticator that already holds one
 * refuses (PASSKEY_ALREADY_LINKED).
 *
 * @example
 * const user = await linkPasskey(client)
 */
export async function linkPasskey(
  client: LatchkeyClient,
  { onStep, signal, ceremonies = browserPasskeyCeremonies }: PasskeyOperationOptions = {},
): Promise<User> {
  requireSupport(ceremonies)
  onStep?.('generating-challenge')
  const init = await client.authedRequest<PasskeyInitResponse>(routes.passkeyLinkInit, {})
  onStep?.('awaiting-passkey')
  const attestation = await runCeremony(ceremonies, signal, () =>
    ceremonies.create(init.options as unknown as PublicKeyCredentialCreationOptionsJSON),
  )
  checkAborted(signal)
  onStep?.('submitting-response')
  const body: PasskeyLinkRequest = {
    relying_party: init.relying_party,
    authenticator_response: attestationWire(attestation),
  }
  const user = toUser(await client.authedRequest<UserWire>(routes.passkeyLink, body))
  client.session.setUser(user)
  return user
}

export interface UnlinkPasskeyParameters {
  /** The passkey's credential id (base64url), as in `PasskeyAccount.credentialId`. */
  credentialId: string
  /** Also remove it as an MFA method; without it a passkey enrolled in MFA is refused. */
  removeAsMfa?: boolean
}

/**
 * Unlinks one passkey from the logged-in user. Refused with 'Cannot unlink a
 * passkey enrolled in MFA' unless `removeAsMfa`, and when it is the user's
 * last login method. With `removeAsMfa`, a passkey enrolled in MFA leaves
 * MFA and the account in one step through the enclave (`unenrollMfa` with
 * `removeForLogin`): a factor change, so it asks for a fresh verification.
 *
 * @example
 * const user = await unlinkPasskey(client, { credentialId: passkey.credentialId })
 */
export async function unlinkPasskey(
  client: LatchkeyClient,
  { credentialId, removeAsMfa }: UnlinkPasskeyParameters,
): Promise<User> {
  if (removeAsMfa) {
    const account = client.session
      .getState()
      .user?.linkedAccounts.find(
        (a): a is PasskeyAccount => a.type === 'passkey' && a.credentialId === credentialId,
      )
    if (account?.enrolledInMfa)
      return unenrollMfa(client, { method: 'passkey', credentialId, removeForLogin: true })
  }
  const body: PasskeyUnlinkRequest = { credential_id: credentialId }
  const user = toUser(await client.authedRequest<UserWire>(routes.passkeyUnlink, body))
  client.session.setUser(user)
  return user
}

/** What the flow was asked to do: log in, sign up (create a new account), or link to the user. */
export type PasskeyAction = 'login' | 'signup' | 'link'

/** Spec 01 §4 "Passkey": generating-challenge → awaiting-passkey → submitting-response → done | error. */
export type PasskeyFlowState =
  | { status: 'initial' }
  | { status: PasskeyStep; action: PasskeyAction }
  | { status: 'done'; action: PasskeyAction; user: User; isNewUser: boolean }
  | { status: 'error'; action: PasskeyAction; error: LatchkeyError; retryable: boolean }

export interface PasskeyFlowOptions {
  /** Log in existing users only (mode `no-signup`); `signup()` is still the caller's choice. */
  disableSignup?: boolean
  ceremonies?: PasskeyCeremonies
}

export interface PasskeyFlow {
  getState(): PasskeyFlowState
  subscribe(listener: () => void): () => void
  /** Logs in with an existing passkey. Never throws: the outcome lands in the state. */
  login(): Promise<void>
  /** Creates a new account with a new passkey. Never throws. */
  signup(): Promise<void>
  /** Links a new passkey to the logged-in user. Never throws. */
  link(): Promise<void>
  /** Runs the last action again after a retryable error. */
  retry(): Promise<void>
  /** Abandons what is under way (dismissing the browser's prompt) and returns to 'initial'. */
  reset(): void
}

/**
 * Passkey login, sign-up and linking as one small state machine the status
 * screen renders. A newer action, or `reset()`, abandons the one under way:
 * its prompt is dismissed and its outcome ignored.
 *
 * @example
 * const flow = createPasskeyFlow(client)
 * flow.subscribe(() => render(flow.getState()))
 * await flow.login()
 */
export function createPasskeyFlow(
  client: LatchkeyClient,
  options: PasskeyFlowOptions = {},
): PasskeyFlow {
  const listeners = new Set<() => void>()
  let state: PasskeyFlowState = { status: 'initial' }
  let current: AbortController | null = null
  let last: PasskeyAction | null = null
  const set = (next: PasskeyFlowState) => {
    state = next
    for (const listener of listeners) listener()
  }
  const abandon = () => {
    current?.abort()
    current = null
  }

  async function run(action: PasskeyAction) {
    abandon()
    const controller = new AbortController()
    current = controller
    last = action
    const { signal } = controller
    const operation: PasskeyOperationOptions = {
      signal,
      ceremonies: options.ceremonies,
      onStep: (step) => {
        if (!signal.aborted) set({ status: step, action })
      },
    }
    try {
      if (action === 'link') {
        const user = await linkPasskey(client, operation)
        if (!signal.aborted) set({ status: 'done', action, user, isNewUser: false })
      } else {
        const { user, isNewUser } =
          action === 'signup'
            ? await signupWithPasskey(client, operation)
            : await loginWithPasskey(client, {
                ...operation,
                mode: options.disableSignup ? 'no-signup' : 'login-or-sign-up',
              })
        if (!signal.aborted) set({ status: 'done', action, user, isNewUser })
      }
    } catch (cause) {
      if (signal.aborted) return
      const error = toLatchkeyError(cause)
      set({ status: 'error', action, error, retryable: error.userMessage.retryable === true })
    } finally {
      if (current === controller) current = null
    }
  }

  return {
    getState: () => state,
    subscribe(listener) {
      listeners.add(listener)
      return () => listeners.delete(listener)
    },
    login: () => run('login'),
    signup: () => run('signup'),
    link: () => run('link'),
    async retry() {
      if (state.status === 'error' && last) await run(last)
    },
    reset() {
      abandon()
      last = null
      set({ status: 'initial' })
    },
  }
}
