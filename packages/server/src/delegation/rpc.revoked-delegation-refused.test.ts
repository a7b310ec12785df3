import { routes } from '@latchkey/protocol'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { getTestInstance, type TestInstance } from '../test/instance.ts'
import { delegate, rpc, setPolicy, userWithRealWallet, walletIdOf } from './testing.ts'

// A wallet never delegated, or delegated and then revoked, is refused 403
// WALLET_NOT_DELEGATED: the app's backend signs nothing once the user took
// the access back, and the refusal is in the user's audit log.
let t: TestInstance
let user: Awaited<ReturnType<typeof userWithRealWallet>>
let ethId: string
let solId: string
beforeAll(async () => {
  t = await getTestInstance()
  user = await userWithRealWallet(t, 'revoked@example.com')
  await setPolicy(t)
  ethId = await walletIdOf(t, user.userId, user.wallet.ethereum)
  solId = await walletIdOf(t, user.userId, user.wallet.solana)
})
afterAll(() => t.close())

const sign = () => rpc(t, ethId, { method: 'personal_sign', params: { message: 'x' } })

it('a wallet never delegated is refused', async () => {
  expect(await sign()).toMatchObject({ status: 403, body: { code: 'WALLET_NOT_DELEGATED' } })
})

it('delegating one wallet does not delegate its sibling', async () => {
  expect((await delegate(t, user, 'ethereum')).status).toBe(200)
  expect((await sign()).status).toBe(200)
  const res = await rpc(t, solId, {
    method: 'signMessage',
    params: { message: Buffer.from('x').toString('base64'), encoding: 'base64' },
  })
  expect(res).toMatchObject({ status: 403, body: { code: 'WALLET_NOT_DELEGATED' } })
})

it('after revoking, the next request is refused', async () => {
  expect(
    (await t.request(routes.embeddedWalletsRevoke, { method: 'POST', token: user.token })).status,
  ).toBe(200)
  // Later than the earlier rows, so it is the newest entry of the log.
  t.clock.advance(1000)
  expect(await sign()).toMatchObject({ status: 403, body: { code: 'WALLET_NOT_DELEGATED' } })
  const log = await t.request(routes.embeddedWalletsDelegatedActions, { token: user.token })
  expect(log.body.data[0]).toMatchObject({
    outcome: 'refused',
    refusal_code: 'WALLET_NOT_DELEGATED',
  })
})
