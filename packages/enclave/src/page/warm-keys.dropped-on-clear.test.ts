import { routes } from '@latchkey/protocol/routes'
import { describe, expect, it, vi } from 'vitest'
import { createHarness, HOST } from './harness.test-helper.ts'
import type { WalletKeys } from './wallet-keys.ts'
import { signatureOf, warmSetup } from './warm-keys.test-helper.ts'
import { createWarmKeys, type WarmKeys } from './warm-keys.ts'

// docs/mfa.md "Warm keys": logout, clearing MFA, removing a factor,
// deleting the account, and any MFA_REQUIRED or 401 from a key route end
// every warm key — wiped, not just forgotten — and the next signature
// fetches the auth share again.

/** A warmed page: one signature made, the kept keys in hand. */
async function warmed() {
  const warm = createWarmKeys()
  const s = await warmSetup({ warmKeys: warm })
  signatureOf(await s.sign())
  const keys = warm.get(s.token, s.address) as WalletKeys
  expect(keys).not.toBeNull()
  expect(keys.isWiped).toBe(false)
  return { ...s, warm, keys }
}

function expectDropped(warm: WarmKeys, keys: WalletKeys) {
  expect(warm.size).toBe(0)
  expect(keys.isWiped).toBe(true)
  expect(() => keys.ethereum(0)).toThrow()
}

describe('warm keys are dropped and wiped on', () => {
  it('latchkey:clear (logout)', async () => {
    const s = await warmed()
    const answer = await s.h.request('latchkey:clear', {})
    expect(answer.message.event).toBe('latchkey:clear:result')
    expectDropped(s.warm, s.keys)
  })

  it('latchkey:mfa:clear, and the server window ends too: the next signature needs MFA', async () => {
    const s = await warmed()
    const answer = await s.h.request('latchkey:mfa:clear', { access_token: s.token })
    expect(answer.message).toMatchObject({ event: 'latchkey:mfa:clear:result', data: {} })
    expectDropped(s.warm, s.keys)
    const refused = await s.sign()
    expect(refused.message.error?.code).toBe('MFA_REQUIRED')
    expect(s.authShareFetches()).toBe(2)
  })

  it('latchkey:mfa:clear even when the server call fails', async () => {
    const s = await warmed()
    s.server.failNext(routes.mfaClear, 'network')
    const answer = await s.h.request('latchkey:mfa:clear', { access_token: s.token })
    expect(answer.message.error?.code).toBe('NETWORK_ERROR')
    expectDropped(s.warm, s.keys)
  })

  it('latchkey:mfa:unenroll', async () => {
    const s = await warmed()
    const answer = await s.h.request('latchkey:mfa:unenroll', {
      access_token: s.token,
      request: { method: 'totp' },
    })
    expect(answer.message.event).toBe('latchkey:mfa:unenroll:result')
    expectDropped(s.warm, s.keys)
    // No factor left: signing works, fetching each time.
    signatureOf(await s.sign())
    signatureOf(await s.sign())
    expect(s.authShareFetches()).toBe(3)
    expect(s.warm.size).toBe(0)
  })

  it('latchkey:account:delete', async () => {
    const s = await warmed()
    const answer = await s.h.request('latchkey:account:delete', { access_token: s.token })
    expect(answer.message.event).toBe('latchkey:account:delete:result')
    expectDropped(s.warm, s.keys)
  })

  it('an MFA_REQUIRED answer from a key route', async () => {
    const s = await warmed()
    s.server.failNext(routes.embeddedWalletsSetRecovery, {
      status: 403,
      body: { code: 'MFA_REQUIRED', message: 'x', details: { mfa_methods: ['totp'] } },
    })
    const answer = await s.h.request('latchkey:wallets:set-recovery', {
      access_token: s.token,
      entropy_id: s.address,
      recovery: { method: 'latchkey' },
    })
    expect(answer.message.error).toMatchObject({
      code: 'MFA_REQUIRED',
      details: { mfa_methods: ['totp'] },
    })
    expectDropped(s.warm, s.keys)
  })

  it('a 401 from a key route (the session is over, or the proof refused)', async () => {
    for (const code of ['UNAUTHORIZED', 'ENCLAVE_PROOF_INVALID']) {
      const s = await warmed()
      s.server.failNext(routes.embeddedWalletsSetRecovery, {
        status: 401,
        body: { code, message: 'Unable to authorize user' },
      })
      const answer = await s.h.request('latchkey:wallets:set-recovery', {
        access_token: s.token,
        entropy_id: s.address,
        recovery: { method: 'latchkey' },
      })
      expect(answer.message.error?.code).toBe(code)
      expectDropped(s.warm, s.keys)
    }
  })

  it('but not on an ordinary failure: a wrong MFA code keeps them', async () => {
    const s = await warmed()
    const answer = await s.h.request('latchkey:mfa:verify', {
      access_token: s.token,
      request: { method: 'totp', code: '000000' },
    })
    expect(answer.message.error?.code).toBe('MFA_INVALID_CODE')
    expect(s.warm.size).toBe(1)
    expect(s.keys.isWiped).toBe(false)
  })
})

describe('in the same app in another tab (BroadcastChannel)', () => {
  it("a logout, an MFA clear or a refusal there ends this tab's warm keys too", async () => {
    for (const event of ['latchkey:clear', 'latchkey:mfa:clear', 'refusal'] as const) {
      const name = `latchkey-warm-keys:test-${event}-${Math.random()}`
      const here = new BroadcastChannel(name)
      const there = new BroadcastChannel(name)
      try {
        const warm = createWarmKeys({ broadcast: here })
        const s = await warmSetup({ warmKeys: warm })
        signatureOf(await s.sign())
        const keys = warm.get(s.token, s.address) as WalletKeys
        // The other tab: its own enclave page, same server, same shared store.
        const other = createHarness({
          fetch: s.server.fetch,
          ancestorOrigins: [HOST],
          store: s.h.store,
          warmKeys: createWarmKeys({ broadcast: there }),
        })
        if (event === 'refusal') {
          s.server.failNext(routes.embeddedWalletsAuthShare, {
            status: 401,
            body: { code: 'UNAUTHORIZED', message: 'Unable to authorize user' },
          })
          const answer = await other.request('latchkey:wallets:rpc', {
            access_token: s.token,
            entropy_id: s.address,
            chain_type: 'ethereum',
            wallet_index: 0,
            request: { method: 'personal_sign', params: ['hi', s.address] },
          })
          expect(answer.message.error?.code).toBe('UNAUTHORIZED')
        } else {
          const data = event === 'latchkey:clear' ? {} : { access_token: s.token }
          expect((await other.request(event, data)).message.event).toBe(`${event}:result`)
        }
        await vi.waitFor(() => expect(keys.isWiped).toBe(true))
        expect(warm.size).toBe(0)
      } finally {
        here.close()
        there.close()
      }
    }
  })
})
