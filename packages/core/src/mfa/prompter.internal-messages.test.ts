import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { LatchkeyError } from '../errors.ts'
import { createMfaPrompter } from './prompter.ts'

// Spec 02 §8 "Other MFA items": the internal messages of MFA errors ('MFA
// canceled', 'Timed out waiting for MFA code', 'MFA verification failed,
// retry.', and 'code 429' marking rate limiting). Each keeps its code, so
// screens keep reading the catalogue's wording (userMessage).

const required = new LatchkeyError('MFA_REQUIRED')

function waiting() {
  const prompter = createMfaPrompter()
  prompter.handle()
  const operation = prompter.challenge(['totp', 'sms'], 4, required).catch((e: LatchkeyError) => e)
  return { prompter, operation }
}

describe('MFA internal messages', () => {
  beforeEach(() => vi.useFakeTimers())
  afterEach(() => vi.useRealTimers())

  it("a wrong code while attempts remain: 'MFA verification failed, retry.', same code and details", async () => {
    const { prompter } = waiting()
    const refused = new LatchkeyError('MFA_INVALID_CODE', undefined, {
      status: 422,
      details: { code: 'MFA_INVALID_CODE' },
    })
    const thrown = await prompter.verify(() => Promise.reject(refused)).catch((e) => e)
    expect(thrown).toMatchObject({
      code: 'MFA_INVALID_CODE',
      message: 'MFA verification failed, retry.',
      status: 422,
      details: { code: 'MFA_INVALID_CODE' },
      cause: refused,
      userMessage: { title: 'The code you entered is not valid' },
    })
    expect(prompter.getChallenge()).toMatchObject({ status: 'pending', attemptsLeft: 3 })
  })

  it("the last wrong code is MFA_MAX_ATTEMPTS with the catalogue's words, not the retry message", async () => {
    const prompter = createMfaPrompter()
    prompter.handle()
    void prompter.challenge(['totp'], 1, required).catch(() => {})
    const thrown = await prompter
      .verify(() => Promise.reject(new LatchkeyError('MFA_INVALID_CODE')))
      .catch((e) => e)
    expect(thrown.code).toBe('MFA_MAX_ATTEMPTS')
    expect(thrown.message).not.toBe('MFA verification failed, retry.')
  })

  it("too many requests is marked 'code 429' and keeps the challenge open", async () => {
    const { prompter } = waiting()
    const limited = new LatchkeyError('TOO_MANY_REQUESTS', undefined, { retryAfter: 30 })
    const thrown = await prompter.verify(() => Promise.reject(limited)).catch((e) => e)
    expect(thrown).toMatchObject({ code: 'TOO_MANY_REQUESTS', retryAfter: 30 })
    expect(thrown.message).toContain('code 429')
    expect(thrown.userMessage.title).toBe('Too many requests. Please wait before trying again.')
    expect(prompter.getChallenge()).toMatchObject({ status: 'pending', attemptsLeft: 4 })
  })

  it("an unnamed failure whose message says 'code 429' is read as rate limiting", async () => {
    const { prompter } = waiting()
    const unnamed = new LatchkeyError('INTERNAL_ERROR', 'Request failed with status code 429')
    const thrown = await prompter.verify(() => Promise.reject(unnamed)).catch((e) => e)
    expect(thrown).toMatchObject({ code: 'TOO_MANY_REQUESTS', cause: unnamed })
    expect(thrown.message).toContain('code 429')
  })

  it("the five-minute wait ends with 'Timed out waiting for MFA code'", async () => {
    const { operation } = waiting()
    await vi.runOnlyPendingTimersAsync()
    expect(await operation).toMatchObject({
      code: 'MFA_TIMEOUT',
      message: 'Timed out waiting for MFA code',
    })
  })

  it("cancel, and a verify after it, say 'MFA canceled'", async () => {
    const { prompter, operation } = waiting()
    prompter.cancel()
    expect(await operation).toMatchObject({ code: 'MFA_CANCELED', message: 'MFA canceled' })
    await expect(prompter.verify(async () => {})).rejects.toMatchObject({
      code: 'MFA_CANCELED',
      message: 'MFA canceled',
    })
  })
})

describe('MFA errors that are not rate limiting', () => {
  it('a named 429 that is not a rate limit (the resend cooldown) passes through unchanged', async () => {
    const prompter = createMfaPrompter()
    prompter.handle()
    void prompter.challenge(['sms'], 4, required).catch(() => {})
    const cooldown = new LatchkeyError('RESEND_COOLDOWN', undefined, { status: 429 })
    await expect(prompter.verify(() => Promise.reject(cooldown))).rejects.toBe(cooldown)
  })
})
