import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Logger } from '../../config.ts'
import { getTestInstance, type TestInstance } from '../../test/instance.ts'
import {
  failureReason,
  PASSKEY_APP_SETTINGS,
  passkeyCreate,
  passkeyLogin,
  SoftwareAuthenticator,
} from './testing.ts'
import { isCounterRegression } from './verify.ts'

// Security bar 25 (WebAuthn §7.2 step 22): when either signCount is
// non-zero, a new one that does not exceed the stored one may mean a cloned
// authenticator: the login is refused, the account flagged and a warning
// logged (without secrets). Synced passkeys that always report 0 log in.
const warnings: string[] = []
const logger: Logger = { info: () => {}, warn: (m) => warnings.push(m), error: () => {} }

let t: TestInstance
beforeAll(async () => {
  t = await getTestInstance({ appSettings: PASSKEY_APP_SETTINGS, logger })
})
afterAll(() => t.close())

async function storedData(authenticator: SoftwareAuthenticator) {
  const row = await t.db
    .selectFrom('linked_accounts')
    .select('data')
    .where('identifier', '=', authenticator.id)
    .executeTakeFirstOrThrow()
  return JSON.parse(row.data) as { counter: number; counter_regression_at?: number }
}

describe('passkey signCount', () => {
  it('is stored after each login', async () => {
    const authenticator = new SoftwareAuthenticator({ counterStep: 3 })
    await passkeyCreate(t, authenticator)
    expect((await passkeyLogin(t, authenticator)).status).toBe(200)
    expect((await storedData(authenticator)).counter).toBe(3)
    expect((await passkeyLogin(t, authenticator)).status).toBe(200)
    expect((await storedData(authenticator)).counter).toBe(6)
  })

  it('that does not increase is refused, flagged and logged', async () => {
    const authenticator = new SoftwareAuthenticator()
    const signUp = await passkeyCreate(t, authenticator)
    await passkeyLogin(t, authenticator)
    await passkeyLogin(t, authenticator)
    expect((await storedData(authenticator)).counter).toBe(2)
    warnings.length = 0

    for (const counter of [2, 1]) {
      const sessions = await t.countRows('sessions')
      const res = await passkeyLogin(t, authenticator, { tamper: { counter } })
      expect(res).toMatchObject({ status: 400, body: { code: 'PASSKEY_VERIFICATION_FAILED' } })
      expect(failureReason(res)).toBe('counter_regression')
      expect(await t.countRows('sessions')).toBe(sessions)
    }
    const data = await storedData(authenticator)
    expect(data.counter).toBe(2)
    expect(data.counter_regression_at).toBe(t.clock.now())
    expect(warnings).toHaveLength(2)
    expect(warnings[0]).toMatch(/signCount did not increase \(stored 2, received 2\)/)
    // No key material, credential id or user id in the log line.
    expect(warnings[0]).not.toContain(authenticator.id)
    expect(warnings[0]).not.toContain(signUp.body.user.id)
    expect(warnings[0]).not.toMatch(/public_key|pQE|token/)

    // The genuine authenticator, moving on, still logs in.
    authenticator.signCount = 10
    expect((await passkeyLogin(t, authenticator)).status).toBe(200)
    expect((await storedData(authenticator)).counter).toBe(11)
  })

  it('of 0 after a non-zero one is refused', async () => {
    const authenticator = new SoftwareAuthenticator()
    await passkeyCreate(t, authenticator)
    await passkeyLogin(t, authenticator)
    const res = await passkeyLogin(t, authenticator, { tamper: { counter: 0 } })
    expect(failureReason(res)).toBe('counter_regression')
  })

  it('that stays 0 (synced passkeys) logs in every time', async () => {
    const authenticator = new SoftwareAuthenticator({ counterStep: 0 })
    await passkeyCreate(t, authenticator)
    for (let i = 0; i < 3; i++) expect((await passkeyLogin(t, authenticator)).status).toBe(200)
    expect(await storedData(authenticator)).not.toHaveProperty('counter_regression_at')
  })

  it('is not flagged by an assertion whose signature fails', async () => {
    const authenticator = new SoftwareAuthenticator()
    await passkeyCreate(t, authenticator)
    await passkeyLogin(t, authenticator)
    const res = await passkeyLogin(t, authenticator, {
      tamper: { counter: 0, signature: 'other-key' },
    })
    expect(failureReason(res)).toBe('signature')
    expect(await storedData(authenticator)).not.toHaveProperty('counter_regression_at')
  })

  it.each([
    [0, 0, false],
    [0, 1, false],
    [5, 6, false],
    [5, 5, true],
    [5, 4, true],
    [5, 0, true],
  ])('stored %i, received %i: regression %s', (stored, received, expected) => {
    expect(isCounterRegression(stored, received)).toBe(expected)
  })
})
