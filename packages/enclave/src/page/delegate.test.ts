import { routes } from '@latchkey/protocol/routes'
import { describe, expect, it } from 'vitest'
import { setupDelegation } from './fake-delegation.test-helper.ts'
import { FAKE_MFA_CODE } from './fake-mfa.test-helper.ts'
import { APP_ID, settle } from './harness.test-helper.ts'

// `latchkey:delegate` (spec 03 §2 "Delegated actions"; docs/delegated-actions.md)
// against the fake server with a real P-256 delegation key. The security
// properties have their own files: delegate.share-leaves-only-sealed and
// delegate.address-not-owned-refused.

const alice = 'user-alice'

describe('latchkey:delegate', () => {
  it('delegates a Solana wallet of the same secret (the seal binds its base58 address)', async () => {
    const t = await setupDelegation()
    const [, solana] = await t.create(alice)
    const answer = await t.delegate(alice, solana.address, 'solana')
    expect(answer.event).toBe('latchkey:delegate:result')
    expect(t.posted()[0]?.body).toMatchObject({ address: solana.address, chain_type: 'solana' })
    expect(t.delegation.opened.has(solana.address)).toBe(true)
  })

  it('an Ethereum address in another letter case is the same wallet; the server’s spelling is sealed', async () => {
    const t = await setupDelegation()
    const [wallet] = await t.create(alice)
    const answer = await t.delegate(alice, wallet.address.toLowerCase(), 'ethereum')
    expect(answer.event).toBe('latchkey:delegate:result')
    expect(t.posted()[0]?.body).toMatchObject({ address: wallet.address })
  })

  it('a wallet whose share is not on this device: WALLET_NOT_FOUND, nothing posted', async () => {
    const t = await setupDelegation()
    const [wallet] = await t.create(alice)
    await t.h.store.clearApp(APP_ID)
    const answer = await t.delegate(alice, wallet.address, 'ethereum')
    expect(answer.error?.code).toBe('WALLET_NOT_FOUND')
    expect(t.posted()).toEqual([])
  })

  it('with MFA: MFA_REQUIRED with the methods reaches the host; after a verification it goes through', async () => {
    const t = await setupDelegation()
    const [wallet] = await t.create(alice)
    t.server.mfa.enroll(alice, 'totp')
    const refused = await t.delegate(alice, wallet.address, 'ethereum')
    expect(refused.error).toMatchObject({
      code: 'MFA_REQUIRED',
      details: { mfa_methods: ['totp'] },
    })
    expect(t.delegation.opened.size).toBe(0)
    const verified = await t.h.request('latchkey:mfa:verify', {
      access_token: alice,
      request: { method: 'totp', code: FAKE_MFA_CODE },
    })
    expect(verified.message.event).toBe('latchkey:mfa:verify:result')
    const answer = await t.delegate(alice, wallet.address, 'ethereum')
    expect(answer.event).toBe('latchkey:delegate:result')
    expect(t.delegation.opened.size).toBe(1)
  })

  it('the delegation key is read without the token or a proof (a public route)', async () => {
    const t = await setupDelegation()
    const [wallet] = await t.create(alice)
    await t.delegate(alice, wallet.address, 'ethereum')
    const keyCall = t.server.calls.find((c) => c.path === routes.embeddedWalletsDelegationKey)
    expect(keyCall?.method).toBe('GET')
    expect(keyCall?.headers.authorization).toBeUndefined()
    expect(keyCall?.headers.dpop).toBeUndefined()
  })

  it('a request the schema refuses (a chain other than ethereum or solana) never reaches the handler', async () => {
    const t = await setupDelegation()
    const [wallet] = await t.create(alice)
    const before = t.h.posted.length
    t.h.deliver({
      id: 'bad',
      event: 'latchkey:delegate',
      data: { access_token: alice, address: wallet.address, chain_type: 'bitcoin' },
    })
    await settle()
    expect(t.h.posted.length).toBe(before)
    expect(t.server.calls.some((c) => c.path === routes.usersMe)).toBe(false)
  })
})
