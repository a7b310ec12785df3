import type { AuthMode, UserWire } from '@latchkey/protocol/schemas'
import type { LatchkeyClient } from '../client.ts'
import { type LatchkeyError, toLatchkeyError } from '../errors.ts'
import { type LoginMethod, setRecentLoginMethod } from '../recent-login.ts'
import { toUser, type User } from '../user.ts'
import {
  CODE_KEPT_AFTER,
  type CodeSend,
  type CodeTarget,
  liveCodeSend,
  recordCodeSent,
  recordCodeSpent,
  recordResendRefused,
  codeSentState as sent,
} from './code-sends.ts'
import { loginRequest } from './login-request.ts'

/** A code as typed, with the spaces the code boxes or a paste put in removed. */
export const cleanCode = (code: string) => code.replace(/\s+/g, '')

/**
 * Posts a send-code request (no session): the channel's `fields`, the captcha
 * token and `disableSignup` when set (spec 01 §7).
 */
export async function codeSendRequest<T = unknown>(
  client: LatchkeyClient,
  path: string,
  fields: Record<string, string>,
  { captchaToken, disableSignup }: { captchaToken?: string; disableSignup?: boolean },
): Promise<T> {
  // docs/captcha.md: a fresh single-use token from the installed captcha, if any.
  const token = captchaToken ?? (await client.captchaToken())
  return client.http.request<T>(path, {
    body: {
      ...fields,
      ...(token ? { token } : {}),
      ...(disableSignup ? { disableSignup: true } : {}),
    },
    auth: false,
  })
}

/** Logs in (or signs up) with a code, stores the session and remembers `method` as the recent one. */
export async function codeLoginRequest(
  client: LatchkeyClient,
  path: string,
  body: Record<string, string>,
  method: LoginMethod,
): Promise<{ user: User; isNewUser: boolean }> {
  const response = await loginRequest(client, path, body)
  const user = client.session.applyAuthResponse(response)
  setRecentLoginMethod(client.storage, client.appId, method)
  return { user, isNewUser: response.is_new_user }
}

/** A signed-in user's request (link, unlink, update) that answers with the user; stores it. */
export async function userRequest(
  client: LatchkeyClient,
  path: string,
  body: Record<string, string>,
): Promise<User> {
  const user = toUser(await client.authedRequest<UserWire>(path, body))
  client.session.setUser(user)
  return user
}

/** What a code flow's state says of how the code went: nothing (email), or `{ channel }` (SMS). */
export type CodeDelivery = Pick<CodeSend, 'channel'>

/** The delivery of a channel whose state says nothing of it (email). */
export type NoDelivery = Record<never, never>

/** Log in, link, or replace the user's address (`oldAddress`, as the user has it). */
export type CodeFlowIntent =
  | { type: 'login'; disableSignup?: boolean }
  | { type: 'link' }
  | { type: 'update'; oldAddress: string }

/**
 * One code login's states, with the address under `address` and the
 * delivery under `via`; a channel's public state (EmailFlowState,
 * SmsFlowState) names the address its own way and spreads the delivery.
 */
export type CodeFlowState<Via extends CodeDelivery> =
  | { status: 'initial' }
  | { status: 'sending-code'; address: string }
  | {
      status: 'awaiting-code-input'
      address: string
      codeSentAt: number
      resendAt: number
      via: Via
    }
  | { status: 'submitting-code'; address: string; codeSentAt: number; resendAt: number; via: Via }
  | { status: 'done'; address: string; user: User; isNewUser: boolean }
  | {
      status: 'error'
      address: string
      error: LatchkeyError
      step: 'send' | 'submit'
      codeSentAt?: number
      resendAt?: number
      via?: Via
    }

/**
 * What differs between code logins: where the code goes and how, and the
 * requests that use it. Everything else (the states, the remembered sends,
 * the resend cooldown) is `createCodeFlow`'s.
 *
 * A new channel is one object of this type plus a state type naming its
 * address (see email.ts, sms.ts). An 'sms-mfa' step: `send` and `login`
 * call the MFA routes (its `login` verifies the code for the session; with a
 * 'login' intent `link` and `update` are never called). A 'totp' step:
 * `send` makes no request (the authenticator app has the code) and resolves
 * at once, so the flow goes straight to the code boxes; its `target` is a
 * CodeTarget of its own, so its memory never mixes with a sent code's.
 */
export interface CodeChannel<Via extends CodeDelivery> {
  /** The public state's name of the address ('email', 'phoneNumber'). */
  key: string
  /** Where the client remembers the codes it sent (code-sends.ts). */
  target: CodeTarget
  /** The normalised address as typed, for the memory; never throws (a bad address fails at send). */
  identify(address: string): string
  /** Sends a code to `address` as typed; resolves to how it went. Throws the refusal. */
  send(address: string, options: { captchaToken?: string; disableSignup?: boolean }): Promise<Via>
  /** A remembered `send` the flow may go back to for `address` as typed: how it went, or null. */
  resume(send: CodeSend, address: string): Via | null
  /** How a code the server refused to send again went (the refusal does not say). */
  refused(send: CodeSend, previous: Via | undefined): Promise<Via>
  /** The delivery a submitted code is taken to have had when the state does not know it. */
  fallback: Via
  /** The intents' requests: each stores what it got (session, user) and resolves to it. */
  login(input: { address: string; code: string; mode: AuthMode }): Promise<{
    user: User
    isNewUser: boolean
  }>
  link(input: { address: string; code: string }): Promise<User>
  update(input: { oldAddress: string; newAddress: string; code: string }): Promise<User>
}

export interface CodeFlow<State> {
  getState(): State
  subscribe(listener: () => void): () => void
  /**
   * Sends a code to `address` and waits for it. When this client sent one
   * there that can still be entered, goes back to it instead (no request).
   */
  sendCode(address: string, captchaToken?: string): Promise<void>
  /** Sends a new code to the same address. */
  resendCode(captchaToken?: string): Promise<void>
  /** Submits the 6-digit code; logs in, links or updates according to the intent. */
  submitCode(code: string): Promise<void>
  reset(): void
}

/** A state as the channel's public type has it: the address under its key, the delivery spread. */
function toPublic<State>(key: string, state: CodeFlowState<CodeDelivery>): State {
  if (state.status === 'initial') return state as State
  const { status, address, ...rest } = state
  const { via, ...others } = rest as typeof rest & { via?: CodeDelivery }
  return { status, [key]: address, ...others, ...via } as State
}

/**
 * The code login as a small state machine the modal renders (spec 01 §4
 * "Email/SMS login"): initial → sending-code → awaiting-code-input →
 * submitting-code → done, with `error` from either step. Methods never
 * throw; failures land in state. The code sent lives on with the client
 * (`code-sends.ts`): a new flow for the same address goes back to it while it
 * can still be entered, and a send the server refuses for the resend
 * cooldown does too.
 *
 * @example
 * const flow = createCodeFlow<EmailFlowState, NoDelivery>(client, emailChannel(client, options))
 * await flow.sendCode('alice@example.com')
 * await flow.submitCode('123456')
 * flow.getState() // { status: 'done', email, user, isNewUser }
 */
export function createCodeFlow<State, Via extends CodeDelivery>(
  client: LatchkeyClient,
  channel: CodeChannel<Via>,
  options: { intent?: CodeFlowIntent; now?: () => number } = {},
): CodeFlow<State> {
  const intent = options.intent ?? { type: 'login' }
  const now = options.now ?? Date.now
  const listeners = new Set<() => void>()
  let state: CodeFlowState<Via> = { status: 'initial' }
  let view = toPublic<State>(channel.key, state)
  const set = (next: CodeFlowState<Via>) => {
    state = next
    view = toPublic<State>(channel.key, next)
    for (const listener of listeners) listener()
  }
  const awaiting = (address: string, send: CodeSend, via: Via) =>
    set({ status: 'awaiting-code-input', address, ...sent(send), via })

  async function send(typed: string, captchaToken: string | undefined, resend: boolean) {
    const address = channel.identify(typed)
    // Issue 16, 3: the code this client sent there is still good; no new one (the server
    // would refuse it for 30 s anyway).
    const live = resend ? null : liveCodeSend(client, channel.target, address, now())
    const resumed = live && channel.resume(live, typed)
    if (live && resumed) return awaiting(address, live, resumed)
    // A failed resend must not strand the code the user already has.
    const same = 'address' in state && state.address === address
    const previousSentAt = same && 'codeSentAt' in state ? state.codeSentAt : undefined
    const previousVia = same && 'via' in state ? state.via : undefined
    set({ status: 'sending-code', address: typed })
    try {
      const via = await channel.send(typed, {
        captchaToken,
        disableSignup: intent.type === 'login' && intent.disableSignup,
      })
      awaiting(address, recordCodeSent(client, channel.target, address, now(), via.channel), via)
    } catch (cause) {
      const error = toLatchkeyError(cause)
      let resendAt: number | undefined
      if (error.code === 'RESEND_COOLDOWN') {
        const known = recordResendRefused(client, channel.target, address, now(), error.retryAfter)
        // A first send refused: a code went out there moments ago (another tab, before a
        // reload) and can still be entered: on to the code screen, counting down.
        if (!resend && now() < known.liveUntil)
          return awaiting(address, known, await channel.refused(known, previousVia))
        resendAt = known.resendAt
      }
      set({
        status: 'error',
        address: typed,
        error,
        step: 'send',
        ...(previousSentAt === undefined ? {} : { codeSentAt: previousSentAt }),
        ...(resendAt === undefined ? {} : { resendAt }),
        ...(previousVia === undefined ? {} : { via: previousVia }),
      })
    }
  }

  /** A used or used-up code can no longer be entered (for `liveCodeSend`). */
  const spent = (address: string) => recordCodeSpent(client, channel.target, address, now())

  return {
    getState: () => view,
    subscribe(listener) {
      listeners.add(listener)
      return () => listeners.delete(listener)
    },
    sendCode: (address, captchaToken) => send(address, captchaToken, false),
    async resendCode(captchaToken) {
      if (state.status === 'initial') return
      await send(state.address, captchaToken, true)
    },
    async submitCode(code) {
      if (
        state.status !== 'awaiting-code-input' &&
        !(state.status === 'error' && (state.step === 'submit' || state.codeSentAt !== undefined))
      )
        return
      const { address } = state
      const codeSentAt = state.codeSentAt ?? now()
      const resendAt = state.resendAt ?? codeSentAt
      const via = state.via ?? channel.fallback
      set({ status: 'submitting-code', address, codeSentAt, resendAt, via })
      try {
        if (intent.type === 'login') {
          const mode = intent.disableSignup ? 'no-signup' : 'login-or-sign-up'
          const { user, isNewUser } = await channel.login({ address, code, mode })
          set({ status: 'done', address, user, isNewUser })
        } else if (intent.type === 'link') {
          const user = await channel.link({ address, code })
          set({ status: 'done', address, user, isNewUser: false })
        } else {
          const { oldAddress } = intent
          const user = await channel.update({ oldAddress, newAddress: address, code })
          set({ status: 'done', address, user, isNewUser: false })
        }
        spent(address)
      } catch (cause) {
        const error = toLatchkeyError(cause)
        if (!CODE_KEPT_AFTER.has(error.code)) spent(address)
        set({ status: 'error', address, error, step: 'submit', codeSentAt, resendAt, via })
      }
    },
    reset() {
      set({ status: 'initial' })
    },
  }
}
