import { routes } from '@latchkey/protocol/routes'
import type { AuthMode } from '@latchkey/protocol/schemas'
import { isPlusEmail, isValidEmail, normalizeEmail } from '@latchkey/protocol/validation'
import type { LatchkeyClient } from '../client.ts'
import { LatchkeyError } from '../errors.ts'
import type { User } from '../user.ts'
import {
  type CodeChannel,
  type CodeFlow,
  cleanCode,
  codeLoginRequest,
  codeSendRequest,
  createCodeFlow,
  type NoDelivery,
  userRequest,
} from './code-login.ts'

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
  await codeSendRequest(
    client,
    routes.emailInit,
    { email: address },
    { captchaToken, disableSignup },
  )
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
  const body = { email: normalizeEmail(email), code: cleanCode(code), mode }
  return codeLoginRequest(client, routes.emailAuthenticate, body, 'email')
}

/** Links `email` to the logged-in user with the code sent to it. */
export async function linkEmail(
  client: LatchkeyClient,
  { email, code }: { email: string; code: string },
): Promise<User> {
  return userRequest(client, routes.emailLink, {
    email: normalizeEmail(email),
    code: cleanCode(code),
  })
}

/** Unlinks `address` from the logged-in user (who must keep one login method). */
export async function unlinkEmail(client: LatchkeyClient, { address }: { address: string }) {
  return userRequest(client, routes.emailUnlink, { address: normalizeEmail(address) })
}

/** Replaces the user's email: the code was sent to `newAddress`. */
export async function updateEmail(
  client: LatchkeyClient,
  { oldAddress, newAddress, code }: { oldAddress: string; newAddress: string; code: string },
): Promise<User> {
  return userRequest(client, routes.emailUpdate, {
    oldAddress: normalizeEmail(oldAddress),
    newAddress: normalizeEmail(newAddress),
    code: cleanCode(code),
  })
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

/** The email flow: `sendCode(email)`, `resendCode()`, `submitCode(code)` (see `createEmailFlow`). */
export interface EmailFlow extends CodeFlow<EmailFlowState> {}

/** Email as a code channel (code-login.ts): the address is the lowercased email. */
const emailChannel = (
  client: LatchkeyClient,
  { disablePlusEmails }: EmailValidationOptions,
): CodeChannel<NoDelivery> => ({
  key: 'email',
  target: 'email',
  identify: normalizeEmail,
  async send(email, options) {
    await sendEmailCode(client, { email, disablePlusEmails, ...options })
    return {}
  },
  resume: (_send, email) => (validateEmailInput(email, { disablePlusEmails }) === null ? {} : null),
  refused: async () => ({}),
  fallback: {},
  login: ({ address, code, mode }) => loginWithEmailCode(client, { email: address, code, mode }),
  link: ({ address, code }) => linkEmail(client, { email: address, code }),
  update: (input) => updateEmail(client, input),
})

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
  return createCodeFlow<EmailFlowState, NoDelivery>(client, emailChannel(client, options), options)
}
