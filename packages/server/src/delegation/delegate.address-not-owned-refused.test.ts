import { routes } from '@latchkey/protocol'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { getTestInstance, type TestInstance } from '../test/instance.ts'
import { delegateBody, userWithRealWallet } from './testing.ts'

// Spec 03 §5: the address to delegate must be linked to the current user,
// else 'Address to delegate is not associated with current user.' — even
// with the right share of another user's wallet, nothing is stored.
let t: TestInstance
let alice: Awaited<ReturnType<typeof userWithRealWallet>>
let bob: Awaited<ReturnType<typeof userWithRealWallet>>
beforeAll(async () => {
  t = await getTestInstance()
  alice = await userWithRealWallet(t, 'alice@example.com')
  bob = await userWithRealWallet(t, 'bob@example.com')
})
afterAll(() => t.close())

it("refuses another user's wallet, with the spec's message", async () => {
  // Bob's real device share, sealed for Alice's request on Bob's address.
  const body = await delegateBody(
    t,
    alice.userId,
    bob.wallet.ethereum,
    'ethereum',
    bob.wallet.deviceShare,
  )
  const res = await t.enclaveRequest(routes.embeddedWalletsDelegate, { token: alice.token, body })
  expect(res).toMatchObject({
    status: 403,
    body: {
      code: 'DELEGATION_ADDRESS_NOT_OWNED',
      message: 'Address to delegate is not associated with current user.',
    },
  })
  expect(await t.countRows('wallet_delegations')).toBe(0)
})

it('refuses an address no one has', async () => {
  const address = '0x000000000000000000000000000000000000dEaD'
  const body = await delegateBody(t, alice.userId, address, 'ethereum', alice.wallet.deviceShare)
  const res = await t.enclaveRequest(routes.embeddedWalletsDelegate, { token: alice.token, body })
  expect(res).toMatchObject({ status: 403, body: { code: 'DELEGATION_ADDRESS_NOT_OWNED' } })
  expect(await t.countRows('wallet_delegations')).toBe(0)
})
