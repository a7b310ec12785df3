import { describe, expect, it } from 'vitest'
import { setupDelegation } from './fake-delegation.test-helper.ts'

// Security property (spec 03 §5): the enclave seals a share only for the
// session user's own embedded wallet on the named chain. Anything else is
// 'Address to delegate is not associated with current user.', and nothing
// is sealed or posted.

const alice = 'user-alice'
const bob = 'user-bob'

describe('an address that is not the user’s own embedded wallet is refused', () => {
  it("another user's wallet", async () => {
    const t = await setupDelegation()
    const [bobs] = await t.create(bob)
    await t.create(alice)
    const answer = await t.delegate(alice, bobs.address, 'ethereum')
    expect(answer.error).toEqual({
      code: 'DELEGATION_ADDRESS_NOT_OWNED',
      message: 'Address to delegate is not associated with current user.',
    })
    expect(t.posted()).toEqual([])
    expect(t.delegation.opened.size).toBe(0)
  })

  it('the right address on the wrong chain', async () => {
    const t = await setupDelegation()
    const [ethereum, solana] = await t.create(alice)
    expect((await t.delegate(alice, ethereum.address, 'solana')).error?.code).toBe(
      'DELEGATION_ADDRESS_NOT_OWNED',
    )
    expect((await t.delegate(alice, solana.address, 'ethereum')).error?.code).toBe(
      'DELEGATION_ADDRESS_NOT_OWNED',
    )
    expect(t.posted()).toEqual([])
  })

  it('a user without wallets', async () => {
    const t = await setupDelegation()
    const [bobs] = await t.create(bob)
    const answer = await t.delegate('user-carol', bobs.address, 'ethereum')
    expect(answer.error?.code).toBe('DELEGATION_ADDRESS_NOT_OWNED')
    expect(t.posted()).toEqual([])
  })
})
