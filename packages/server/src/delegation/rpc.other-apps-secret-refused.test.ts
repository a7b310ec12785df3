import { afterAll, beforeAll, expect, it } from 'vitest'
import { createAppSecret } from '../apps/app-secrets.ts'
import { getTestInstance, type TestInstance } from '../test/instance.ts'
import { delegate, rpc, setPolicy, userWithRealWallet, walletIdOf } from './testing.ts'

// Another app's backend, with its own valid secret, cannot use this app's
// delegated wallet: the wallet is not its (404 WALLET_NOT_FOUND), nothing is
// signed; and this app's secret under the other app's id is refused.
let t: TestInstance
let walletId: string
let otherAppId: string
let otherSecret: string
beforeAll(async () => {
  t = await getTestInstance()
  const user = await userWithRealWallet(t, 'victim@example.com')
  expect((await delegate(t, user)).status).toBe(200)
  await setPolicy(t)
  walletId = await walletIdOf(t, user.userId, user.wallet.ethereum)
  const other = await t.createApp()
  otherAppId = other.id
  await setPolicy(t, {}, otherAppId)
  otherSecret = (await createAppSecret(t.db, otherAppId, t.clock.now())).secret
})
afterAll(() => t.close())

const body = { method: 'personal_sign' as const, params: { message: 'drain' } }

it("another app's valid secret does not reach this app's wallet", async () => {
  const res = await rpc(t, walletId, body, { appId: otherAppId, secret: otherSecret })
  expect(res).toMatchObject({ status: 404, body: { code: 'WALLET_NOT_FOUND' } })
  expect(JSON.stringify(res.body)).not.toContain('signature')
})

it("this app's secret under the other app's id is refused", async () => {
  const res = await rpc(t, walletId, body, { appId: otherAppId, secret: t.appSecret })
  expect(res).toMatchObject({ status: 401, body: { code: 'INVALID_APP_SECRET' } })
})

it('nothing was signed', async () => {
  const signed = await t.db
    .selectFrom('delegated_actions')
    .select('id')
    .where('outcome', '=', 'signed')
    .execute()
  expect(signed).toHaveLength(0)
})
