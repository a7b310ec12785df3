import { routes } from '@latchkey/protocol/routes'
import type { AuthMode, UserWire } from '@latchkey/protocol/schemas'
import { isPlusEmail, isValidEmail, normalizeEmail } from '@latchkey/protocol/validation'
import type { LatchkeyClient } from '../client.ts'
import { LatchkeyError, toLatchkeyError } from '../errors.ts'
import { setRecentLoginMethod } from '../recent-login.ts'
import { toUser, type User } from '../user.ts'
import {
  CODE_KEPT_AFTER,
  liveCodeSend,
  recordCodeSent,
  recordCodeSpent,
  recordResendRefused,
  codeSentState as sent,
} from './code-sends.ts'
import { loginRequest } from './login-request.ts'

export interface EmailValidationOptions {
  disablePlusEmails?: boolean
}

/**
 * Checks an email as typed (spec 01 §5). Returns the error code to show, or
 * null when the address may be submitted.
 */
export function validateEmailInput(
  value: string,
  options: EmailValidationOptions = {},
): 'INVALID_EMAIL' | 'PLUS_EMAIL_NOT_ALLOWED' | null {
  const email = value.trim()
  if (!isValidEmail(email)) return 'INVALID_EMAIL'
  if (options.disablePlusEmails && isPlusEmail(email)) return 'PLUS_EMAIL_NOT_ALLOWED'
  return null
}

function assertEmail(value: string, options: EmailValidationOptions): string {
  const problem = validateEmailInput(value, options)
  if (problem) throw new LatchkeyError(problem)
  return normalizeEmail(value)
}

export interface SendEmailCodeParameters extends EmailValidationOptions {
  email: string
  disableSignup?: boolean
  /** Captcha token, when the app enables captcha. */
  captchaToken?: string
}

/** Sends a 6-digit code to `email`. */
export async function sendEmailCode(
  client: LatchkeyClient,
  { email, disableSignup, captchaToken, ...validation }: SendEmailCodeParameters,
): Promise<void> {
  const address = assertEmail(email, validation)
  // docs/captcha.md: a fresh single-use token from the installed captcha, if any.
  const token = captchaToken ?? (await client.captchaToken())
  await client.http.request(routes.emailInit, {
    body: {
      email: address,
      ...(token ? { token } : {}),
      ...(disableSignup ? { disableSignup: true } : {}),
    },
    auth: false,
  })
}

export interface LoginWithEmailCodeParameters {
  email: string
  code: string
  /** `no-signup` when sign-up is disabled (spec 01 §5). */
  mode?: AuthMode
}

export interface LoginWithEmailCodeReturnType {
  user: User
  isNewUser: boolean
}

/** Logs in (or signs up) with the code sent to `email`, and stores the session. */
export async function loginWithEmailCode(
  client: LatchkeyClient,
  { email, code, mode = 'login-or-sign-up' }: LoginWithEmailCodeParameters,
): Promise<LoginWithEmailCodeReturnType> {
  const response = await loginRequest(client, routes.emailAuthenticate, {
    email: normalizeEmail(email),
    code: code.replace(/\s+/g, ''),
    mode,
  })
  const user = client.session.applyAuthResponse(response)
  setRecentLoginMethod(client.storage, client.appId, 'email')
  return { user, isNewUser: response.is_new_user }
}

/** Links `email` to the logged-in user with the code sent to it. */
export async function linkEmail(
  client: LatchkeyClient,
  { email, code }: { email: string; code: string },
): Promise<User> {
  const wire = await client.authedRequest<UserWire>(routes.emailLink, {
    email: normalizeEmail(email),
    code: code.replace(/\s+/g, ''),
  })
  const user = toUser(wire)
  client.session.setUser(user)
  return user
}

/** Unlinks `address` from the logged-in user (who must keep one login method). */
export async function unlinkEmail(client: LatchkeyClient, { address }: { address: string }) {
  const user = toUser(
    await client.authedRequest<UserWire>(routes.emailUnlink, { address: normalizeEmail(address) }),
  )
  client.session.setUser(user)
  return user
}

/** Replaces the user's email: the code was sent to `newAddress`. */
export async function updateEmail(
  client: LatchkeyClient,
  { oldAddress, newAddress, code }: { oldAddress: string; newAddress: string; code: string },
): Promise<User> {
  const user = toUser(
    await client.authedRequest<UserWire>(routes.emailUpdate, {
      oldAddress: normalizeEmail(oldAddress),
      newAddress: normalizeEmail(newAddress),
      code: code.replace(/\s+/g, ''),
    }),
  )
  client.session.setUser(user)
  return user
}

/**
 * The email flow's states (spec 01 §4 "Email/SMS login"). Once a code is out,
 * `codeSentAt` is when it went and `resendAt` when the server sends another
 * (the resend cooldown, or a 429's `retry_after`): the resend link's countdown.
 */
export type EmailFlowState =
  | { status: 'initial' }
  | { status: 'sending-code'; email: string }
  | { status: 'awaiting-code-input'; email: string; codeSentAt: number; resendAt: number }
  | { status: 'submitting-code'; email: string; codeSentAt: number; resendAt: number }
  | { status: 'done'; email: string; user: User; isNewUser: boolean }
  | {
      status: 'error'
      email: string
      error: LatchkeyError
      /** The step that failed: sending returns to the email input, submitting to the code boxes. */
      step: 'send' | 'submit'
      /** Set when a code was sent earlier (a failed resend): that code can still be submitted. */
      codeSentAt?: number
      /** Set when the server said when it sends another code (RESEND_COOLDOWN). */
      resendAt?: number
    }

export type EmailFlowIntent =
  | { type: 'login'; disableSignup?: boolean }
  | { type: 'link' }
  | { type: 'update'; oldAddress: string }

export interface EmailFlowOptions extends EmailValidationOptions {
  intent?: EmailFlowIntent
  now?: () => number
}

export interface EmailFlow {
  getState(): EmailFlowState
  subscribe(listener: () => void): () => void
  /**
   * Sends a code to `email` and waits for it. When this client sent one there
   * that can still be entered, goes back to it instead (no request).
   */
  sendCode(email: string, captchaToken?: string): Promise<void>
  /** Sends a new code to the same address. */
  resendCode(captchaToken?: string): Promise<void>
  /** Submits the 6-digit code; logs in, links or updates according to the intent. */
  submitCode(code: string): Promise<void>
  reset(): void
}

/**
 * The email flow as a small state machine the modal renders:
 * initial → sending-code → awaiting-code-input → submitting-code → done,
 * with `error` from either step. Methods never throw; failures land in state.
 * The code sent lives on with the client (`code-sends.ts`): a new flow for
 * the same address goes back to it while it can still be entered, and a
 * send the server refuses for the resend cooldown does too.
 *
 * @example
 * const flow = createEmailFlow(client)
 * await flow.sendCode('alice@example.com')
 * await flow.submitCode('123456')
 * flow.getState() // { status: 'done', user, isNewUser }
 */
export function createEmailFlow(client: LatchkeyClient, options: EmailFlowOptions = {}): EmailFlow {
  const intent = options.intent ?? { type: 'login' }
  const now = options.now ?? Date.now
  const listeners = new Set<() => void>()
  let state: EmailFlowState = { status: 'initial' }
  const set = (next: EmailFlowState) => {
    state = next
    for (const listener of listeners) listener()
  }

  async function send(email: string, captchaToken: string | undefined, resend: boolean) {
    const address = normalizeEmail(email)
    // Issue 16, 3: the code this client sent there is still good; no new one (the server
    // would refuse it for 30 s anyway).
    const live = resend ? null : liveCodeSend(client, 'email', address, now())
    if (live && validateEmailInput(email, options) === null)
      return set({ status: 'awaiting-code-input', email: address, ...sent(live) })
    // A failed resend must not strand the code the user already has.
    const sameEmail = 'email' in state && state.email === address
    const previousSentAt = sameEmail && 'codeSentAt' in state ? state.codeSentAt : undefined
    set({ status: 'sending-code', email })
    try {
      await sendEmailCode(client, {
        email,
        captchaToken,
        disablePlusEmails: options.disablePlusEmails,
        disableSignup: intent.type === 'login' && intent.disableSignup,
      })
      const record = recordCodeSent(client, 'email', address, now())
      set({ status: 'awaiting-code-input', email: address, ...sent(record) })
    } catch (cause) {
      const error = toLatchkeyError(cause)
      let resendAt: number | undefined
      if (error.code === 'RESEND_COOLDOWN') {
        const known = recordResendRefused(client, 'email', address, now(), error.retryAfter)
        // A first send refused: a code went out there moments ago (another tab, before a
        // reload) and can still be entered: on to the code screen, counting down.
        if (!resend && now() < known.liveUntil)
          return set({ status: 'awaiting-code-input', email: address, ...sent(known) })
        resendAt = known.resendAt
      }
      set({
        status: 'error',
        email,
        error,
        step: 'send',
        ...(previousSentAt === undefined ? {} : { codeSentAt: previousSentAt }),
        ...(resendAt === undefined ? {} : { resendAt }),
      })
    }
  }

  /** A used or used-up code can no longer be entered (for `liveCodeSend`). */
  const spent = (email: string) => recordCodeSpent(client, 'email', email, now())

  return {
    getState: () => state,
    subscribe(listener) {
      listeners.add(listener)
      return () => listeners.delete(listener)
    },
    sendCode: (email, captchaToken) => send(email, captchaToken, false),
    async resendCode(captchaToken) {
      if (state.status === 'initial') return
      await send(state.email, captchaToken, true)
    },
    async submitCode(code) {
      if (
        state.status !== 'awaiting-code-input' &&
        !(state.status === 'error' && (state.step === 'submit' || state.codeSentAt !== undefined))
      )
        return
      const { email } = state
      const codeSentAt = state.codeSentAt ?? now()
      const resendAt = state.resendAt ?? codeSentAt
      set({ status: 'submitting-code', email, codeSentAt, resendAt })
      try {
        if (intent.type === 'login') {
          const mode = intent.disableSignup ? 'no-signup' : 'login-or-sign-up'
          const { user, isNewUser } = await loginWithEmailCode(client, { email, code, mode })
          set({ status: 'done', email, user, isNewUser })
        } else if (intent.type === 'link') {
          set({
            status: 'done',
            email,
            user: await linkEmail(client, { email, code }),
            isNewUser: false,
          })
        } else {
          const user = await updateEmail(client, {
            oldAddress: intent.oldAddress,
            newAddress: email,
            code,
          })
          set({ status: 'done', email, user, isNewUser: false })
        }
        spent(email)
      } catch (cause) {
        const error = toLatchkeyError(cause)
        if (!CODE_KEPT_AFTER.has(error.code)) spent(email)
        set({ status: 'error', email, error, step: 'submit', codeSentAt, resendAt })
      }
    },
    reset() {
      set({ status: 'initial' })
    },
  }
}
