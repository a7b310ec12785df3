import { routes } from '@latchkey/protocol/routes'
import type { AuthMode, SmsInitResponse, UserWire } from '@latchkey/protocol/schemas'
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

/**
 * The E.164 form of a phone number given with its country calling code
 * ('+1 (415) 555-2671' → '+14155552671'): digits only, '+' in front. Throws
 * INVALID_PHONE_NUMBER for something that cannot be a phone number. The
 * per-country check is the phone input's (PhoneForm, libphonenumber-js) and
 * the server's; this module carries no phone metadata, to stay small.
 */
export function toPhoneE164(phoneNumber: string): string {
  const digits = phoneNumber.replace(/\D+/g, '')
  if (digits.length < 7 || digits.length > 15 || digits.startsWith('0'))
    throw new LatchkeyError('INVALID_PHONE_NUMBER')
  return `+${digits}`
}

const cleanCode = (code: string) => code.replace(/\s+/g, '')

export interface SendSmsCodeParameters {
  /** E.164, or digits with the country calling code. */
  phoneNumber: string
  disableSignup?: boolean
  /** Captcha token, when the app enables captcha. */
  captchaToken?: string
}

/** Sends a 6-digit code by SMS (or WhatsApp, when the app enables it); returns the channel used. */
export async function sendSmsCode(
  client: LatchkeyClient,
  { phoneNumber, disableSignup, captchaToken }: SendSmsCodeParameters,
): Promise<{ channel: 'sms' | 'whatsapp' }> {
  const e164 = toPhoneE164(phoneNumber)
  // docs/captcha.md: a fresh single-use token from the installed captcha, if any.
  const token = captchaToken ?? (await client.captchaToken())
  const response = await client.http.request<SmsInitResponse>(routes.smsInit, {
    body: {
      phoneNumber: e164,
      ...(token ? { token } : {}),
      ...(disableSignup ? { disableSignup: true } : {}),
    },
    auth: false,
  })
  return { channel: response?.channel === 'whatsapp' ? 'whatsapp' : 'sms' }
}

export interface LoginWithSmsCodeParameters {
  phoneNumber: string
  code: string
  /** `no-signup` when sign-up is disabled (spec 01 §5). */
  mode?: AuthMode
}

export interface LoginWithSmsCodeReturnType {
  user: User
  isNewUser: boolean
}

/** Logs in (or signs up) with the code sent to `phoneNumber`, and stores the session. */
export async function loginWithSmsCode(
  client: LatchkeyClient,
  { phoneNumber, code, mode = 'login-or-sign-up' }: LoginWithSmsCodeParameters,
): Promise<LoginWithSmsCodeReturnType> {
  const response = await loginRequest(client, routes.smsAuthenticate, {
    phoneNumber: toPhoneE164(phoneNumber),
    code: cleanCode(code),
    mode,
  })
  const user = client.session.applyAuthResponse(response)
  setRecentLoginMethod(client.storage, client.appId, 'sms')
  return { user, isNewUser: response.is_new_user }
}

/** Links `phoneNumber` to the logged-in user with the code sent to it. */
export async function linkPhone(
  client: LatchkeyClient,
  { phoneNumber, code }: { phoneNumber: string; code: string },
): Promise<User> {
  const user = toUser(
    await client.authedRequest<UserWire>(routes.smsLink, {
      phoneNumber: toPhoneE164(phoneNumber),
      code: cleanCode(code),
    }),
  )
  client.session.setUser(user)
  return user
}

/** Unlinks `phoneNumber` from the logged-in user (who must keep one login method). */
export async function unlinkPhone(
  client: LatchkeyClient,
  { phoneNumber }: { phoneNumber: string },
): Promise<User> {
  const user = toUser(
    await client.authedRequest<UserWire>(routes.smsUnlink, {
      phoneNumber: toPhoneE164(phoneNumber),
    }),
  )
  client.session.setUser(user)
  return user
}

/** Replaces the user's phone number: the code was sent to `newPhoneNumber`. */
export async function updatePhone(
  client: LatchkeyClient,
  {
    oldPhoneNumber,
    newPhoneNumber,
    code,
  }: { oldPhoneNumber: string; newPhoneNumber: string; code: string },
): Promise<User> {
  const user = toUser(
    await client.authedRequest<UserWire>(routes.smsUpdate, {
      old_phone_number: toPhoneE164(oldPhoneNumber),
      new_phone_number: toPhoneE164(newPhoneNumber),
      code: cleanCode(code),
    }),
  )
  client.session.setUser(user)
  return user
}

/** The SMS flow's states (spec 01 §4 "Email/SMS login"); `phoneNumber` is E.164 once accepted. */
export type SmsFlowState =
  | { status: 'initial' }
  | { status: 'sending-code'; phoneNumber: string }
  | {
      status: 'awaiting-code-input'
      phoneNumber: string
      codeSentAt: number
      /** When the server sends another code (see EmailFlowState). */
      resendAt: number
      channel: 'sms' | 'whatsapp'
    }
  | {
      status: 'submitting-code'
      phoneNumber: string
      codeSentAt: number
      resendAt: number
      channel: 'sms' | 'whatsapp'
    }
  | { status: 'done'; phoneNumber: string; user: User; isNewUser: boolean }
  | {
      status: 'error'
      phoneNumber: string
      error: LatchkeyError
      /** The step that failed: sending returns to the phone input, submitting to the code boxes. */
      step: 'send' | 'submit'
      /** Set when a code was sent earlier (a failed resend): that code can still be submitted. */
      codeSentAt?: number
      /** Set when the server said when it sends another code (RESEND_COOLDOWN). */
      resendAt?: number
      channel?: 'sms' | 'whatsapp'
    }

export type SmsFlowIntent =
  | { type: 'login'; disableSignup?: boolean }
  | { type: 'link' }
  | { type: 'update'; oldPhoneNumber: string }

export interface SmsFlowOptions {
  intent?: SmsFlowIntent
  now?: () => number
}

export interface SmsFlow {
  getState(): SmsFlowState
  subscribe(listener: () => void): () => void
  /**
   * Sends a code to `phoneNumber` (E.164) and waits for it; goes back to the
   * code this client sent there instead while it can still be entered.
   */
  sendCode(phoneNumber: string, captchaToken?: string): Promise<void>
  /** Sends a new code to the same number. */
  resendCode(captchaToken?: string): Promise<void>
  /** Submits the 6-digit code; logs in, links or updates according to the intent. */
  submitCode(code: string): Promise<void>
  reset(): void
}

/** The channel the app's codes go by, when a send did not say (whatsapp_enabled). */
async function channelOf(client: LatchkeyClient): Promise<'sms' | 'whatsapp'> {
  const config = await client.getAppConfig().catch(() => null)
  return config?.whatsapp_enabled ? 'whatsapp' : 'sms'
}

const e164OrAsTyped = (phoneNumber: string) => {
  try {
    return toPhoneE164(phoneNumber)
  } catch {
    return phoneNumber
  }
}

/**
 * The SMS/WhatsApp flow, the same state machine as the email flow:
 * initial → sending-code → awaiting-code-input → submitting-code → done,
 * with `error` from either step. Methods never throw; failures land in state.
 *
 * @example
 * const flow = createSmsFlow(client)
 * await flow.sendCode('+14155552671')
 * await flow.submitCode('123456')
 * flow.getState() // { status: 'done', user, isNewUser }
 */
export function createSmsFlow(client: LatchkeyClient, options: SmsFlowOptions = {}): SmsFlow {
  const intent = options.intent ?? { type: 'login' }
  const now = options.now ?? Date.now
  const listeners = new Set<() => void>()
  let state: SmsFlowState = { status: 'initial' }
  const set = (next: SmsFlowState) => {
    state = next
    for (const listener of listeners) listener()
  }

  async function send(phoneNumber: string, captchaToken: string | undefined, resend: boolean) {
    const e164 = e164OrAsTyped(phoneNumber)
    // Issue 16, 3: back to the code this client sent there while it is still good.
    const live = resend ? null : liveCodeSend(client, 'phone', e164, now())
    if (live?.channel)
      return set({
        status: 'awaiting-code-input',
        phoneNumber: e164,
        ...sent(live),
        channel: live.channel,
      })
    // A failed resend must not strand the code the user already has.
    const samePhone = 'phoneNumber' in state && state.phoneNumber === e164
    const previousSentAt = samePhone && 'codeSentAt' in state ? state.codeSentAt : undefined
    const previousChannel = samePhone && 'channel' in state ? state.channel : undefined
    set({ status: 'sending-code', phoneNumber })
    try {
      const { channel } = await sendSmsCode(client, {
        phoneNumber,
        captchaToken,
        disableSignup: intent.type === 'login' && intent.disableSignup,
      })
      const record = recordCodeSent(client, 'phone', e164, now(), channel)
      set({ status: 'awaiting-code-input', phoneNumber: e164, ...sent(record), channel })
    } catch (cause) {
      const error = toLatchkeyError(cause)
      let resendAt: number | undefined
      if (error.code === 'RESEND_COOLDOWN') {
        const known = recordResendRefused(client, 'phone', e164, now(), error.retryAfter)
        // A first send refused: a code went out moments ago and can still be entered.
        if (!resend && now() < known.liveUntil) {
          const channel = known.channel ?? previousChannel ?? (await channelOf(client))
          return set({ status: 'awaiting-code-input', phoneNumber: e164, ...sent(known), channel })
        }
        resendAt = known.resendAt
      }
      set({
        status: 'error',
        phoneNumber,
        error,
        step: 'send',
        ...(previousSentAt === undefined ? {} : { codeSentAt: previousSentAt }),
        ...(resendAt === undefined ? {} : { resendAt }),
        ...(previousChannel === undefined ? {} : { channel: previousChannel }),
      })
    }
  }

  /** A used or used-up code can no longer be entered (for `liveCodeSend`). */
  const spent = (phoneNumber: string) => recordCodeSpent(client, 'phone', phoneNumber, now())

  return {
    getState: () => state,
    subscribe(listener) {
      listeners.add(listener)
      return () => listeners.delete(listener)
    },
    sendCode: (phoneNumber, captchaToken) => send(phoneNumber, captchaToken, false),
    async resendCode(captchaToken) {
      if (state.status === 'initial') return
      await send(state.phoneNumber, captchaToken, true)
    },
    async submitCode(code) {
      if (
        state.status !== 'awaiting-code-input' &&
        !(state.status === 'error' && (state.step === 'submit' || state.codeSentAt !== undefined))
      )
        return
      const { phoneNumber } = state
      const codeSentAt = state.codeSentAt ?? now()
      const resendAt = state.resendAt ?? codeSentAt
      const channel = state.channel ?? 'sms'
      set({ status: 'submitting-code', phoneNumber, codeSentAt, resendAt, channel })
      try {
        if (intent.type === 'login') {
          const mode = intent.disableSignup ? 'no-signup' : 'login-or-sign-up'
          const { user, isNewUser } = await loginWithSmsCode(client, { phoneNumber, code, mode })
          set({ status: 'done', phoneNumber, user, isNewUser })
        } else if (intent.type === 'link') {
          set({
            status: 'done',
            phoneNumber,
            user: await linkPhone(client, { phoneNumber, code }),
            isNewUser: false,
          })
        } else {
          const user = await updatePhone(client, {
            oldPhoneNumber: intent.oldPhoneNumber,
            newPhoneNumber: phoneNumber,
            code,
          })
          set({ status: 'done', phoneNumber, user, isNewUser: false })
        }
        spent(phoneNumber)
      } catch (cause) {
        const error = toLatchkeyError(cause)
        if (!CODE_KEPT_AFTER.has(error.code)) spent(phoneNumber)
        set({ status: 'error', phoneNumber, error, step: 'submit', codeSentAt, resendAt, channel })
      }
    },
    reset() {
      set({ status: 'initial' })
    },
  }
}
