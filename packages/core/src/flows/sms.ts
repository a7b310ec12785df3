import { routes } from '@latchkey/protocol/routes'
import type { AuthMode, SmsInitResponse } from '@latchkey/protocol/schemas'
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
  userRequest,
} from './code-login.ts'

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
  const fields = { phoneNumber: toPhoneE164(phoneNumber) }
  const options = { captchaToken, disableSignup }
  const response = await codeSendRequest<SmsInitResponse>(client, routes.smsInit, fields, options)
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
  const body = { phoneNumber: toPhoneE164(phoneNumber), code: cleanCode(code), mode }
  return codeLoginRequest(client, routes.smsAuthenticate, body, 'sms')
}

/** Links `phoneNumber` to the logged-in user with the code sent to it. */
export async function linkPhone(
  client: LatchkeyClient,
  { phoneNumber, code }: { phoneNumber: string; code: string },
): Promise<User> {
  const body = { phoneNumber: toPhoneE164(phoneNumber), code: cleanCode(code) }
  return userRequest(client, routes.smsLink, body)
}

/** Unlinks `phoneNumber` from the logged-in user (who must keep one login method). */
export async function unlinkPhone(
  client: LatchkeyClient,
  { phoneNumber }: { phoneNumber: string },
): Promise<User> {
  return userRequest(client, routes.smsUnlink, { phoneNumber: toPhoneE164(phoneNumber) })
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
  return userRequest(client, routes.smsUpdate, {
    old_phone_number: toPhoneE164(oldPhoneNumber),
    new_phone_number: toPhoneE164(newPhoneNumber),
    code: cleanCode(code),
  })
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

/** The SMS flow: `sendCode(phoneNumber)`, `resendCode()`, `submitCode(code)` (see `createSmsFlow`). */
export interface SmsFlow extends CodeFlow<SmsFlowState> {}

type PhoneDelivery = { channel: 'sms' | 'whatsapp' }

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

/** SMS/WhatsApp as a code channel (code-login.ts): the address is the E.164 number. */
const smsChannel = (client: LatchkeyClient): CodeChannel<PhoneDelivery> => ({
  key: 'phoneNumber',
  target: 'phone',
  identify: e164OrAsTyped,
  send: (phoneNumber, options) => sendSmsCode(client, { phoneNumber, ...options }),
  resume: (send) => (send.channel ? { channel: send.channel } : null),
  refused: async (send, previous) => ({
    channel: send.channel ?? previous?.channel ?? (await channelOf(client)),
  }),
  fallback: { channel: 'sms' },
  login: ({ address, code, mode }) =>
    loginWithSmsCode(client, { phoneNumber: address, code, mode }),
  link: ({ address, code }) => linkPhone(client, { phoneNumber: address, code }),
  update: ({ oldAddress, newAddress, code }) =>
    updatePhone(client, { oldPhoneNumber: oldAddress, newPhoneNumber: newAddress, code }),
})

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
  const { intent, now } = options
  return createCodeFlow<SmsFlowState, PhoneDelivery>(client, smsChannel(client), {
    intent:
      intent?.type === 'update' ? { type: 'update', oldAddress: intent.oldPhoneNumber } : intent,
    now,
  })
}
