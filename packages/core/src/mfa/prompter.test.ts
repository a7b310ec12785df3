import { MFA_CODE_WAIT_MS, MFA_OPERATION_ATTEMPTS } from '@latchkey/protocol/constants'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { LatchkeyError } from '../errors.ts'
import { createMfaPrompter } from './prompter.ts'

const required = new LatchkeyError('MFA_REQUIRED')
const wrongCode = () => Promise.reject(new LatchkeyError('MFA_INVALID_CODE'))
const codeOf = (promise: Promise<unknown>) =>
  promise.then(
    () => 'resolved',
    (error: LatchkeyError) => error.code,
  )

describe('the MFA prompter', () => {
  beforeEach(() => {
    vi.useFakeTimers()
  })
  afterEach(() => {
    vi.useRealTimers()
  })

  it('fails at once with MFA_REQUIRED when no UI answers challenges', async () => {
    const prompter = createMfaPrompter()
    await expect(prompter.challenge(['totp'], 4, required)).rejects.toBe(required)
    expect(prompter.getChallenge()).toBeNull()
  })

  it('resolves the waiting operation once a verification passes', async () => {
    const prompter = createMfaPrompter()
    prompter.handle()
    const waiting = prompter.challenge(['totp', 'sms'], MFA_OPERATION_ATTEMPTS, required)
    expect(prompter.getChallenge()).toEqual({
      status: 'pending',
      methods: ['totp', 'sms'],
      attemptsLeft: 4,
    })
    await prompter.verify(async () => {})
    await expect(waiting).resolves.toBe(3)
    expect(prompter.getChallenge()).toBeNull()
  })

  it('keeps the challenge open after a wrong code and counts it', async () => {
    const prompter = createMfaPrompter()
    prompter.handle()
    const waiting = prompter.challenge(['totp'], 4, required)
    await expect(prompter.verify(wrongCode)).rejects.toMatchObject({ code: 'MFA_INVALID_CODE' })
    expect(prompter.getChallenge()).toMatchObject({ status: 'pending', attemptsLeft: 3 })
    await prompter.verify(async () => {})
    await expect(waiting).resolves.toBe(2)
  })

  it('fails with max attempts after the fourth wrong code of one operation', async () => {
    const prompter = createMfaPrompter()
    prompter.handle()
    const waiting = codeOf(prompter.challenge(['totp'], MFA_OPERATION_ATTEMPTS, required))
    for (let i = 0; i < 3; i++)
      await expect(prompter.verify(wrongCode)).rejects.toMatchObject({ code: 'MFA_INVALID_CODE' })
    await expect(prompter.verify(wrongCode)).rejects.toMatchObject({ code: 'MFA_MAX_ATTEMPTS' })
    expect(await waiting).toBe('MFA_MAX_ATTEMPTS')
    expect(prompter.getChallenge()).toMatchObject({
      status: 'failed',
      error: { code: 'MFA_MAX_ATTEMPTS' },
    })
    prompter.dismiss()
    expect(prompter.getChallenge()).toBeNull()
  })

  it("fails the operation with the server's lock (MFA_MAX_ATTEMPTS) at once", async () => {
    const prompter = createMfaPrompter()
    prompter.handle()
    const waiting = codeOf(prompter.challenge(['sms'], 4, required))
    const locked = new LatchkeyError('MFA_MAX_ATTEMPTS', undefined, { retryAfter: 900 })
    // Spec 02 §8: "a message containing 'code 429' marks rate limiting".
    await expect(prompter.verify(() => Promise.reject(locked))).rejects.toMatchObject({
      code: 'MFA_MAX_ATTEMPTS',
      message: expect.stringContaining('code 429'),
      retryAfter: 900,
      cause: locked,
    })
    expect(await waiting).toBe('MFA_MAX_ATTEMPTS')
  })

  it('does not spend an attempt on an error that is not a refused code', async () => {
    const prompter = createMfaPrompter()
    prompter.handle()
    void prompter.challenge(['sms'], 4, required)
    const offline = new LatchkeyError('NETWORK_ERROR')
    await expect(prompter.verify(() => Promise.reject(offline))).rejects.toBe(offline)
    expect(prompter.getChallenge()).toMatchObject({ status: 'pending', attemptsLeft: 4 })
  })

  it('cancels with "MFA canceled", which screens show as "Verification canceled"', async () => {
    const prompter = createMfaPrompter()
    prompter.handle()
    const waiting = prompter.challenge(['totp'], 4, required)
    prompter.cancel()
    await expect(waiting).rejects.toMatchObject({
      code: 'MFA_CANCELED',
      message: 'MFA canceled',
      userMessage: { title: 'Verification canceled' },
    })
    expect(prompter.getChallenge()).toBeNull()
  })

  it('times out after the five-minute code wait, restarted by each attempt', async () => {
    const prompter = createMfaPrompter()
    prompter.handle()
    const waiting = codeOf(prompter.challenge(['totp'], 4, required))
    vi.advanceTimersByTime(MFA_CODE_WAIT_MS - 1_000)
    await expect(prompter.verify(wrongCode)).rejects.toMatchObject({ code: 'MFA_INVALID_CODE' })
    vi.advanceTimersByTime(MFA_CODE_WAIT_MS - 1)
    expect(prompter.getChallenge()).toMatchObject({ status: 'pending' })
    vi.advanceTimersByTime(1)
    expect(await waiting).toBe('MFA_TIMEOUT')
    expect(prompter.getChallenge()).toMatchObject({
      status: 'failed',
      error: {
        code: 'MFA_TIMEOUT',
        message: 'Timed out waiting for MFA code',
        userMessage: {
          title: 'You have exceeded the time limit for code entry. Please try again in 30 seconds.',
        },
      },
    })
  })

  it('lets operations that need MFA together wait for one verification', async () => {
    const prompter = createMfaPrompter()
    prompter.handle()
    const first = prompter.challenge(['totp'], 4, required)
    const second = prompter.challenge(['totp'], 4, required)
    const notify = vi.fn()
    prompter.subscribe(notify)
    await prompter.verify(async () => {})
    await expect(Promise.all([first, second])).resolves.toEqual([3, 3])
    expect(notify).toHaveBeenCalledTimes(1)
  })

  it('stops answering once its UI withdraws', async () => {
    const prompter = createMfaPrompter()
    const withdraw = prompter.handle()
    withdraw()
    withdraw()
    await expect(prompter.challenge(['totp'], 4, required)).rejects.toBe(required)
  })
})
