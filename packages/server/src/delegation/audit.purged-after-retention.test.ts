import { afterAll, beforeAll, expect, it } from 'vitest'
import { purgeExpired } from '../maintenance/purge.ts'
import { getTestInstance, type TestInstance } from '../test/instance.ts'
import { DELEGATED_ACTION_RETENTION_MS } from './audit.ts'
import { delegate, rpc, setPolicy, userWithRealWallet, walletIdOf } from './testing.ts'

// The log of delegated actions is kept for its retention period (90 days),
// then the purge deletes it: a row one millisecond short of it stays, a row
// at it goes, and a newer row outlives an older one.
let t: TestInstance
let walletId: string
beforeAll(async () => {
  t = await getTestInstance({ purgeIntervalMs: 0 })
  const user = await userWithRealWallet(t, 'audit-retention@example.com')
  expect((await delegate(t, user)).status).toBe(200)
  walletId = await walletIdOf(t, user.userId, user.wallet.ethereum)
  await setPolicy(t)
})
afterAll(() => t.close())

const sign = () => rpc(t, walletId, { method: 'personal_sign', params: { message: 'kept?' } })

it('keeps a row for the retention period, then purges it', async () => {
  const first = t.clock.now()
  expect((await sign()).status).toBe(200)
  t.clock.advance(60_000)
  expect((await sign()).status).toBe(200)
  expect(await t.countRows('delegated_actions')).toBe(2)

  const short = await purgeExpired(t.db, first + DELEGATED_ACTION_RETENTION_MS - 1)
  expect(short.delegated_actions).toBe(0)
  expect(await t.countRows('delegated_actions')).toBe(2)

  const due = await purgeExpired(t.db, first + DELEGATED_ACTION_RETENTION_MS)
  expect(due.delegated_actions).toBe(1)
  expect(await t.countRows('delegated_actions')).toBe(1)
})
