import { afterAll, beforeAll, expect, it } from 'vitest'
import { getTestInstance, type TestInstance } from '../test/instance.ts'
import { reserveSponsoredOperation, sponsoredToday } from './sponsored-operations.ts'

// Asking again for the same operation (same sender and nonce) replaces its
// ledger row, but the earlier signature stays valid: a user could ask for a
// costly operation, then a cheap one with the same nonce, and send the costly
// one. The row keeps the highest max cost signed for the nonce, so the
// per-user gas cap counts what the deposit may really lose.
let t: TestInstance
let userId: string
beforeAll(async () => {
  t = await getTestInstance()
  userId = (await t.login('re-sponsor@example.com')).user.id
})
afterAll(() => t.close())

const caps = { maxOperations: null, maxGasCost: 1_000n }
const operation = (nonce: bigint, maxCost: bigint) => ({
  appId: t.app.id,
  userId,
  chainId: 8453,
  sender: '0x00000000000000000000000000000000000000aa',
  nonce,
  maxCost,
})

it('a cheaper re-sponsorship of a nonce does not lower what the cap counts', async () => {
  const now = t.clock.now()
  await reserveSponsoredOperation(t.db, operation(1n, 900n), caps, now)
  await reserveSponsoredOperation(t.db, operation(1n, 10n), caps, now)
  // One row for the nonce, at the costly signature's max cost.
  expect(await sponsoredToday(t.db, operation(1n, 0n), now)).toEqual({
    operations: 1,
    gasCost: 900n,
  })
  // So a second costly operation is over the cap, as it would be on chain.
  await expect(
    reserveSponsoredOperation(t.db, operation(2n, 900n), caps, now),
  ).rejects.toMatchObject({ code: 'SPONSORSHIP_DAILY_CAP_REACHED' })
  // A costlier re-sponsorship of the same nonce raises it.
  await reserveSponsoredOperation(t.db, operation(1n, 950n), caps, now)
  expect((await sponsoredToday(t.db, operation(1n, 0n), now)).gasCost).toBe(950n)
})
