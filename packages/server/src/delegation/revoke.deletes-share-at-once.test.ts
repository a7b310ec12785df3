import { routes } from '@latchkey/protocol'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { getTestInstance, TEST_ORIGIN, type TestInstance } from '../test/instance.ts'
import { delegate, rpc, setPolicy, userWithRealWallet, walletIdOf } from './testing.ts'

// Revoking (an empty POST, spec 03 §7) deletes every delegated share of the
// user in the app at once: the rows are gone (not flagged), the wallets read
// `delegated: false`, and the very next server-side signature is refused.
// Another user's delegation is untouched.
let t: TestInstance
let user: Awaited<ReturnType<typeof userWithRealWallet>>
let other: Awaited<ReturnType<typeof userWithRealWallet>>
beforeAll(async () => {
  t = await getTestInstance()
  user = await userWithRealWallet(t, 'revoker@example.com')
  other = await userWithRealWallet(t, 'keeper@example.com')
  expect((await delegate(t, user, 'ethereum')).status).toBe(200)
  expect((await delegate(t, user, 'solana')).status).toBe(200)
  expect((await delegate(t, other, 'ethereum')).status).toBe(200)
  await setPolicy(t)
})
afterAll(() => t.close())

const rowsOf = (userId: string) =>
  t.db.selectFrom('wallet_delegations').selectAll().where('user_id', '=', userId).execute()

it('deletes both shares with one empty POST and answers the user with nothing delegated', async () => {
  expect(await rowsOf(user.userId)).toHaveLength(2)
  const walletId = await walletIdOf(t, user.userId, user.wallet.ethereum)
  expect(
    (await rpc(t, walletId, { method: 'personal_sign', params: { message: 'before' } })).status,
  ).toBe(200)

  const res = await t.request(routes.embeddedWalletsRevoke, {
    method: 'POST',
    token: user.token,
    origin: TEST_ORIGIN,
  })
  expect(res.status).toBe(200)
  const wallets = res.body.linked_accounts.filter((a: { type: string }) => a.type === 'wallet')
  expect(wallets).toHaveLength(2)
  expect(wallets.every((w: { delegated: boolean }) => w.delegated === false)).toBe(true)
  expect(await rowsOf(user.userId)).toHaveLength(0)

  const after = await rpc(t, walletId, { method: 'personal_sign', params: { message: 'after' } })
  expect(after).toMatchObject({ status: 403, body: { code: 'WALLET_NOT_DELEGATED' } })
})

it("leaves another user's delegation", async () => {
  expect(await rowsOf(other.userId)).toHaveLength(1)
})

it('accepts `{}` and refuses a non-empty body', async () => {
  expect(
    (await t.request(routes.embeddedWalletsRevoke, { token: user.token, body: {} })).status,
  ).toBe(200)
  const res = await t.request(routes.embeddedWalletsRevoke, {
    token: user.token,
    body: { address: user.wallet.ethereum },
  })
  expect(res).toMatchObject({ status: 400, body: { code: 'INVALID_PAYLOAD' } })
})

it('needs a session', async () => {
  const res = await t.request(routes.embeddedWalletsRevoke, { method: 'POST' })
  expect(res.status).toBe(401)
  expect(await rowsOf(other.userId)).toHaveLength(1)
})
