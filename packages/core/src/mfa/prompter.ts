import { MFA_CODE_WAIT_MS } from '@latchkey/protocol/constants'
import type { LatchkeyClient } from '../client.ts'
import { LatchkeyError, toLatchkeyError } from '../errors.ts'
import type { MfaMethod } from '../user.ts'

/*
 * The MFA challenge of a wallet operation (spec 02 §4 "MFA verification"):
 * when the server answers MFA_REQUIRED, the operation waits here while a UI
 * (the modal, or the app's own through `useMfa`) has the user verify; then
 * the operation goes on. One challenge at a time: operations that need MFA
 * together wait for the same verification.
 */

/** What the UI draws while an operation waits for MFA. */
export type MfaChallenge =
  | {
      status: 'pending'
      /** The user's methods to verify with, in the chooser's order (authenticator app, SMS, passkey). */
      methods: MfaMethod[]
      /** Verifications the operation may still try (spec 02 §9: 4 in all). */
      attemptsLeft: number
    }
  | {
      /** The wait ended (MFA_TIMEOUT) or the attempts are spent (MFA_MAX_ATTEMPTS): shown until dismissed. */
      status: 'failed'
      methods: MfaMethod[]
      error: LatchkeyError
    }

/** One verification, as the UI submits it. */
export type MfaVerifyAttempt = () => Promise<unknown>

export interface MfaPrompter {
  getChallenge(): MfaChallenge | null
  subscribe(listener: () => void): () => void
  /**
   * Declares a UI that answers challenges (the React provider does). Without
   * one, an operation that needs MFA fails at once with MFA_REQUIRED.
   * Returns what withdraws it.
   */
  handle(): () => void
  /**
   * The operation's side: waits until the user verified. Resolves with the
   * attempts left; rejects with MFA_CANCELED, MFA_TIMEOUT, MFA_MAX_ATTEMPTS,
   * or `required` itself when no UI answers.
   */
  challenge(methods: MfaMethod[], attemptsLeft: number, required: LatchkeyError): Promise<number>
  /**
   * The UI's side: runs one verification. Success ends the challenge; a
   * wrong code (MFA_INVALID_CODE) spends an attempt and rethrows it (message
   * 'MFA verification failed, retry.'), and the last one fails the challenge
   * with MFA_MAX_ATTEMPTS (thrown too). Rate limiting (the server's lock,
   * a 429) is rethrown with 'code 429' in its message; the lock fails the
   * challenge.
   */
  verify(attempt: MfaVerifyAttempt): Promise<void>
  /**
   * 'Cancel' or closing: the operation rejects with MFA_CANCELED (message
   * 'MFA canceled'; screens show the catalogue's 'Verification canceled').
   */
  cancel(): void
  /** Clears a failed challenge once its message was seen. */
  dismiss(): void
}

interface Waiter {
  resolve(attemptsLeft: number): void
  reject(error: LatchkeyError): void
}

/** Errors that spend one of the operation's attempts: the server refused the proof itself. */
const SPENDS_ATTEMPT = new Set(['MFA_INVALID_CODE', 'PASSKEY_VERIFICATION_FAILED'])

/*
 * The internal messages of spec 02 §8 ("Other MFA items"): what `message`
 * says to developers and logs. Screens never show them: they read the
 * catalogue by code ('Verification canceled', the time-limit text, …).
 */
export const MFA_CANCELED_MESSAGE = 'MFA canceled'
export const MFA_TIMEOUT_MESSAGE = 'Timed out waiting for MFA code'
export const MFA_RETRY_MESSAGE = 'MFA verification failed, retry.'
/** A message containing this marks rate limiting (spec 02 §8). */
export const RATE_LIMIT_MARK = 'code 429'
const RATE_LIMITED_MESSAGE = `MFA verification rate limited (${RATE_LIMIT_MARK})`

/** `error` with another code or message, keeping what the server said (details, wait, status). */
function restated(error: LatchkeyError, code: LatchkeyError['code'], message: string) {
  return new LatchkeyError(code, message, {
    cause: error,
    details: error.details,
    ...(error.status === undefined ? {} : { status: error.status }),
    ...(error.retryAfter === undefined ? {} : { retryAfter: error.retryAfter }),
    ...(error.serverMessage === undefined ? {} : { serverMessage: error.serverMessage }),
  })
}

/**
 * A refused attempt that is rate limiting: the server's lock (MFA_MAX_ATTEMPTS,
 * a 429), TOO_MANY_REQUESTS, or a failure with no known code (INTERNAL_ERROR)
 * that is a 429 or whose message is marked 'code 429'. Restated with the mark
 * in its message; the unnamed one becomes TOO_MANY_REQUESTS. Anything else
 * (a resend cooldown too): null.
 */
function rateLimited(error: LatchkeyError): LatchkeyError | null {
  if (error.code === 'MFA_MAX_ATTEMPTS' || error.code === 'TOO_MANY_REQUESTS')
    return restated(error, error.code, RATE_LIMITED_MESSAGE)
  if (
    error.code === 'INTERNAL_ERROR' &&
    (error.status === 429 || error.message.includes(RATE_LIMIT_MARK))
  )
    return restated(error, 'TOO_MANY_REQUESTS', RATE_LIMITED_MESSAGE)
  return null
}

/**
 * A prompter for one client.
 *
 * @example
 * const prompter = createMfaPrompter()
 * prompter.subscribe(() => render(prompter.getChallenge()))
 */
export function createMfaPrompter(): MfaPrompter {
  let challenge: MfaChallenge | null = null
  let waiters: Waiter[] = []
  let handlers = 0
  let timer: ReturnType<typeof setTimeout> | undefined
  const listeners = new Set<() => void>()

  const set = (next: MfaChallenge | null) => {
    challenge = next
    for (const listener of [...listeners]) listener()
  }
  const settle = (outcome: { attemptsLeft: number } | { error: LatchkeyError }) => {
    clearTimeout(timer)
    timer = undefined
    const current = waiters
    waiters = []
    for (const waiter of current) {
      if ('error' in outcome) waiter.reject(outcome.error)
      else waiter.resolve(outcome.attemptsLeft)
    }
  }
  const fail = (error: LatchkeyError) => {
    const methods = challenge?.methods ?? []
    settle({ error })
    set({ status: 'failed', methods, error })
  }
  // Spec 02 §9: the code wait, restarted by each attempt.
  const startWait = () => {
    clearTimeout(timer)
    timer = setTimeout(
      () => fail(new LatchkeyError('MFA_TIMEOUT', MFA_TIMEOUT_MESSAGE)),
      MFA_CODE_WAIT_MS,
    )
  }

  return {
    getChallenge: () => challenge,
    subscribe(listener) {
      listeners.add(listener)
      return () => listeners.delete(listener)
    },
    handle() {
      handlers += 1
      let withdrawn = false
      return () => {
        if (withdrawn) return
        withdrawn = true
        handlers -= 1
      }
    },
    challenge(methods, attemptsLeft, required) {
      if (handlers === 0) return Promise.reject(required)
      if (attemptsLeft <= 0) return Promise.reject(new LatchkeyError('MFA_MAX_ATTEMPTS'))
      return new Promise<number>((resolve, reject) => {
        waiters.push({ resolve, reject })
        if (challenge?.status === 'pending') return
        set({ status: 'pending', methods, attemptsLeft })
        startWait()
      })
    },
    async verify(attempt) {
      const current = challenge
      if (current?.status !== 'pending')
        throw new LatchkeyError('MFA_CANCELED', MFA_CANCELED_MESSAGE)
      startWait()
      try {
        await attempt()
      } catch (cause) {
        const error = toLatchkeyError(cause)
        if (challenge !== current) throw error
        const limited = rateLimited(error)
        if (limited?.code === 'MFA_MAX_ATTEMPTS') {
          fail(limited)
          throw limited
        }
        if (limited) throw limited
        if (!SPENDS_ATTEMPT.has(error.code)) throw error
        const attemptsLeft = current.attemptsLeft - 1
        if (attemptsLeft <= 0) {
          const spent = new LatchkeyError('MFA_MAX_ATTEMPTS')
          fail(spent)
          throw spent
        }
        set({ ...current, attemptsLeft })
        // The screen reads the code ('The code you entered is not valid'); the message is internal.
        throw restated(error, error.code, MFA_RETRY_MESSAGE)
      }
      if (challenge !== current) return
      settle({ attemptsLeft: current.attemptsLeft - 1 })
      set(null)
    },
    cancel() {
      if (challenge?.status === 'failed') return set(null)
      if (!challenge) return
      settle({ error: new LatchkeyError('MFA_CANCELED', MFA_CANCELED_MESSAGE) })
      set(null)
    },
    dismiss() {
      if (challenge?.status === 'failed') set(null)
    },
  }
}

const prompters = new WeakMap<LatchkeyClient, MfaPrompter>()

/** The client's MFA prompter (one per client). */
export function getMfaPrompter(client: LatchkeyClient): MfaPrompter {
  let prompter = prompters.get(client)
  if (!prompter) {
    prompter = createMfaPrompter()
    prompters.set(client, prompter)
  }
  return prompter
}
