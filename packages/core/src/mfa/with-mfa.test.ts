import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import type { LatchkeyClient } from '../client.ts'
import { LatchkeyError } from '../errors.ts'
import { getMfaPrompter } from './prompter.ts'
import { methodsToVerify, withMfa } from './with-mfa.ts'

function fakeClient(mfaMethods: string[] = []): LatchkeyClient {
  return {
    session: { getState: () => ({ status: 'authenticated', user: { mfaMethods } }) },
  } as unknown as LatchkeyClient
}

const mfaRequired = (methods: string[]) =>
  new LatchkeyError('MFA_REQUIRED', undefined, {
    details: { code: 'MFA_REQUIRED', message: 'x', details: { mfa_methods: methods } },
  })

describe('withMfa', () => {
  beforeEach(() => {
    vi.useFakeTimers()
  })
  afterEach(() => {
    vi.useRealTimers()
  })

  it('runs the operation again once the user verified', async () => {
    const client = fakeClient(['totp'])
    const prompter = getMfaPrompter(client)
    prompter.handle()
    const operation = vi
      .fn<() => Promise<string>>()
      .mockRejectedValueOnce(mfaRequired(['totp']))
      .mockResolvedValueOnce('0xsigned')
    const result = withMfa(client, operation)
    await vi.waitFor(() => expect(prompter.getChallenge()).not.toBeNull())
    expect(prompter.getChallenge()).toMatchObject({ methods: ['totp'] })
    await prompter.verify(async () => {})
    await expect(result).resolves.toBe('0xsigned')
    expect(operation).toHaveBeenCalledTimes(2)
  })

  it('ends with max attempts when the operation keeps asking for MFA', async () => {
    const client = fakeClient(['totp'])
    const prompter = getMfaPrompter(client)
    prompter.handle()
    const operation = vi.fn(() => Promise.reject(mfaRequired(['totp'])))
    const result = withMfa(client, operation).catch((error: LatchkeyError) => error.code)
    for (let i = 0; i < 4; i++) {
      await vi.waitFor(() => expect(prompter.getChallenge()?.status).toBe('pending'))
      await prompter.verify(async () => {})
    }
    expect(await result).toBe('MFA_MAX_ATTEMPTS')
    expect(operation).toHaveBeenCalledTimes(5)
  })

  it('passes every other error through untouched', async () => {
    const client = fakeClient()
    const failure = new LatchkeyError('WALLET_NOT_FOUND')
    await expect(withMfa(client, () => Promise.reject(failure))).rejects.toBe(failure)
  })

  it("names the server's methods, else the user's, in the chooser's order", () => {
    const client = fakeClient(['passkey', 'sms'])
    expect(methodsToVerify(client, mfaRequired(['passkey', 'totp', 'bogus']))).toEqual([
      'totp',
      'passkey',
    ])
    expect(methodsToVerify(client, new LatchkeyError('MFA_REQUIRED'))).toEqual(['sms', 'passkey'])
  })
})
