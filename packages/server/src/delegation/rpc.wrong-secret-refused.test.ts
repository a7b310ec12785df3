import { afterAll, beforeAll, expect, it } from 'vitest'
import { getTestInstance, type TestInstance } from '../test/instance.ts'
import { delegate, rpc, setPolicy, userWithRealWallet, walletIdOf } from './testing.ts'

// The RPC answers only the app's backend with one of its live secrets: a
// wrong secret, or none, gets 401 and no signature; nothing is audited as
// signed.
let t: TestInstance
let walletId: string
beforeAll(async () => {
  t = await getTestInstance()
  const user = await userWithRealWallet(t, 'secret-check@example.com')
  expect((await delegate(t, user)).status).toBe(200)
  await setPolicy(t)
  walletId = await walletIdOf(t, user.userId, user.wallet.ethereum)
})
afterAll(() => t.close())

const body = { method: 'personal_sign' as const, params: { message: 'sign me' } }

it('a wrong secret is refused', async () => {
  const res = await rpc(t, walletId, body, { secret: `lk_sk_${'x'.repeat(43)}` })
  expect(res).toMatchObject({ status: 401, body: { code: 'INVALID_APP_SECRET' } })
  expect(JSON.stringify(res.body)).not.toContain('signature')
})

it('no credentials at all are refused', async () => {
  const res = await t.request(`/api/v1/wallets/${walletId}/rpc`, { body })
  expect(res).toMatchObject({ status: 401, body: { code: 'APP_AUTH_REQUIRED' } })
})

it('a browser may not call it even with the secret', async () => {
  const res = await rpc(t, walletId, body)
  expect(res.status).toBe(200)
  const fromBrowser = await t.request(`/api/v1/wallets/${walletId}/rpc`, {
    body,
    origin: 'http://app.test',
    headers: {
      authorization: `Basic ${Buffer.from(`${t.app.id}:${t.appSecret}`).toString('base64')}`,
    },
  })
  expect(fromBrowser).toMatchObject({ status: 403, body: { code: 'APP_SECRET_FROM_BROWSER' } })
})

it('only the accepted request was signed', async () => {
  const signed = await t.db
    .selectFrom('delegated_actions')
    .selectAll()
    .where('outcome', '=', 'signed')
    .execute()
  expect(signed).toHaveLength(1)
})
