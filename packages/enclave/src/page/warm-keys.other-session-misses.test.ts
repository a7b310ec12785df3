import { describe, expect, it } from 'vitest'
import { FAKE_MFA_CODE, sessionToken } from './fake-mfa.test-helper.ts'
import type { WalletKeys } from './wallet-keys.ts'
import { ALICE, signatureOf, warmSetup } from './warm-keys.test-helper.ts'
import { createWarmKeys, sessionIdOf } from './warm-keys.ts'

// docs/mfa.md "Warm keys": a key is kept for one session (the access
// token's `sid`) and never serves another — another session of the same
// user, a token without a session id, or an expired token.
describe('another session', () => {
  it("never signs with this session's warm key: it asks the server, which wants its own MFA", async () => {
    const warm = createWarmKeys()
    const s = await warmSetup({ warmKeys: warm })
    signatureOf(await s.sign())
    const other = sessionToken(ALICE, 'session-b')
    const answer = await s.sign(other)
    expect(answer.message.error).toMatchObject({
      code: 'MFA_REQUIRED',
      details: { mfa_methods: ['totp'] },
    })
    expect(s.authShareFetches()).toBe(2)
    // The refusal drops every warm key, this session's too.
    expect(warm.size).toBe(0)
  })

  it("once verified itself, it fetches its own share; keeping it drops the first session's key", async () => {
    const warm = createWarmKeys()
    const s = await warmSetup({ warmKeys: warm })
    signatureOf(await s.sign())
    const first = warm.get(s.token, s.address) as WalletKeys
    const other = sessionToken(ALICE, 'session-b')
    expect((await s.verify(other)).message.event).toBe('latchkey:mfa:verify:result')
    signatureOf(await s.sign(other))
    expect(s.authShareFetches()).toBe(2)
    expect(first.isWiped).toBe(true)
    expect(warm.get(s.token, s.address)).toBeNull()
    expect(warm.get(other, s.address)).not.toBeNull()
    expect(warm.size).toBe(1)
  })

  it('a token without a session id never keeps nor finds a key', async () => {
    const warm = createWarmKeys()
    const s = await warmSetup({ warmKeys: warm })
    // `user-alice` is a bearer the fake server knows, but not a JWT: no `sid`.
    expect(
      (
        await s.h.request('latchkey:mfa:verify', {
          access_token: ALICE,
          request: { method: 'totp', code: FAKE_MFA_CODE },
        })
      ).message.event,
    ).toBe('latchkey:mfa:verify:result')
    signatureOf(await s.sign(ALICE))
    signatureOf(await s.sign(ALICE))
    expect(s.authShareFetches()).toBe(2)
    expect(warm.size).toBe(0)
  })
})

describe('sessionIdOf', () => {
  const now = Date.UTC(2030, 0, 1)
  it("reads the JWT payload's sid without verifying", () => {
    expect(sessionIdOf(sessionToken(ALICE, 'sid-1'), now)).toBe('sid-1')
  })
  it('is null for an expired token, a token without sid, and anything not a JWT', () => {
    expect(sessionIdOf(sessionToken(ALICE, 'sid-1', now / 1000), now)).toBeNull()
    expect(sessionIdOf(sessionToken(ALICE, 'sid-1', now / 1000 + 1), now)).toBe('sid-1')
    expect(sessionIdOf(sessionToken(ALICE, ''), now)).toBeNull()
    for (const token of ['user-alice', 'a.b.c', 'a.%%%.c', '', `x.${btoa('[1]')}.y`])
      expect(sessionIdOf(token, now)).toBeNull()
  })
})
