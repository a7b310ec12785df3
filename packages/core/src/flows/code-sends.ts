import { CODE_RESEND_COOLDOWN_MS, CODE_TTL_MS } from '@latchkey/protocol/constants'
import type { LatchkeyClient } from '../client.ts'

/*
 * What this client remembers of the last code it had sent to each address
 * (tracker issue 16, item 3): the email and SMS flows live as long as one
 * modal attempt, but the code they sent outlives it, and the server refuses
 * another for 30 s (spec 01 §9). So a user who closes the modal, or goes
 * back, and enters the same address again is taken back to the code already
 * sent while it can still be entered, with the resend link counting down.
 * Kept in memory, per client: a reload forgets it, and the server's
 * RESEND_COOLDOWN (with `retry_after`) then says the same thing.
 */

/** Where a code goes: an email address, or a phone number (SMS or WhatsApp). */
export type CodeTarget = 'email' | 'phone'

/** The last code sent to one address, as this client knows it (client clock, epoch ms). */
export interface CodeSend {
  /** When it went out. */
  sentAt: number
  /** Until when it can be entered: CODE_TTL_MS after sending, or when it was used up. */
  liveUntil: number
  /** When the server sends another: the resend cooldown's end, or a 429's `retry_after`. */
  resendAt: number
  /** The phone channel the server chose, for SMS flows. */
  channel?: 'sms' | 'whatsapp'
}

const memory = new WeakMap<LatchkeyClient, Map<string, CodeSend>>()

function sendsOf(client: LatchkeyClient): Map<string, CodeSend> {
  let sends = memory.get(client)
  if (!sends) {
    sends = new Map()
    memory.set(client, sends)
  }
  return sends
}

const keyOf = (target: CodeTarget, identifier: string) => `${target}:${identifier}`

/** A send as the flows' states hold it: when the code went, when another can. */
export const codeSentState = (send: CodeSend) => ({
  codeSentAt: send.sentAt,
  resendAt: send.resendAt,
})

/** A code went out to `identifier` (normalised: lowercased email, E.164 number) at `now`. */
export function recordCodeSent(
  client: LatchkeyClient,
  target: CodeTarget,
  identifier: string,
  now: number,
  channel?: 'sms' | 'whatsapp',
): CodeSend {
  const send: CodeSend = {
    sentAt: now,
    liveUntil: now + CODE_TTL_MS,
    resendAt: now + CODE_RESEND_COOLDOWN_MS,
    ...(channel ? { channel } : {}),
  }
  sendsOf(client).set(keyOf(target, identifier), send)
  return send
}

/**
 * The server refused a send with RESEND_COOLDOWN: a code went out less than
 * the cooldown ago (from this tab, another one, or before a reload), and
 * another can go `retryAfter` seconds from `now` (the whole cooldown when
 * the server did not say). A code this client saw used up stays used up.
 */
export function recordResendRefused(
  client: LatchkeyClient,
  target: CodeTarget,
  identifier: string,
  now: number,
  retryAfter: number | undefined,
): CodeSend {
  const resendAt = now + (retryAfter === undefined ? CODE_RESEND_COOLDOWN_MS : retryAfter * 1000)
  const sends = sendsOf(client)
  const known = sends.get(keyOf(target, identifier))
  const sentAt = known?.sentAt ?? Math.min(now, resendAt - CODE_RESEND_COOLDOWN_MS)
  const send: CodeSend = {
    ...known,
    sentAt,
    liveUntil: known?.liveUntil ?? sentAt + CODE_TTL_MS,
    resendAt,
  }
  sends.set(keyOf(target, identifier), send)
  return send
}

/**
 * Submit failures after which the code can still be entered: a wrong code,
 * or a refusal before the server looked at it (a cap, the network). After
 * any other (account not found, allowlist, too many attempts…) the server
 * has spent it.
 */
export const CODE_KEPT_AFTER: ReadonlySet<string> = new Set([
  'INVALID_CODE',
  'TOO_MANY_REQUESTS',
  'NETWORK_ERROR',
  'TIMEOUT',
])

/** The code was used (a login) or used up (too many attempts): it can no longer be entered. */
export function recordCodeSpent(
  client: LatchkeyClient,
  target: CodeTarget,
  identifier: string,
  now: number,
): void {
  const sends = sendsOf(client)
  const known = sends.get(keyOf(target, identifier))
  if (known)
    sends.set(keyOf(target, identifier), { ...known, liveUntil: Math.min(now, known.liveUntil) })
}

/** The last code sent to `identifier`, if it can still be entered at `now`; else null. */
export function liveCodeSend(
  client: LatchkeyClient,
  target: CodeTarget,
  identifier: string,
  now: number,
): CodeSend | null {
  const send = sendsOf(client).get(keyOf(target, identifier))
  return send && now < send.liveUntil ? send : null
}
