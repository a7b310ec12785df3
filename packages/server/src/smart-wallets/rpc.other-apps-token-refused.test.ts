import { routes } from '@latchkey/protocol'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { getTestInstance, type TestInstance } from '../test/instance.ts'
import {
  setSmartWallets,
  smartWalletRpcRequest,
  startRecordingPeer,
} from './paymaster.test-helper.ts'

// A token is good for its own app only: a user's access token of app B,
// sent with app A's id (or the other way round), is refused 401 before any
// JSON-RPC is read, and nothing reaches either app's bundler.
const CHAIN = 8453
let t: TestInstance
let bundler: Awaited<ReturnType<typeof startRecordingPeer>>
let otherAppId: string
let tokenA: string
let tokenB: string
beforeAll(async () => {
  t = await getTestInstance()
  bundler = await startRecordingPeer()
  const settings = { enabled: true, chains: [{ chain_id: CHAIN, bundler_url: bundler.url }] }
  otherAppId = (await t.createApp({})).id
  await setSmartWallets(t, settings)
  await setSmartWallets(t, settings, otherAppId)
  tokenA = (await t.login('a@example.com')).token ?? ''
  tokenB = (await t.login('b@example.com', { appId: otherAppId })).token ?? ''
})
afterAll(async () => {
  await t.close()
  await bundler.close()
})

it("refuses app B's token on app A's route and app A's token on app B's", async () => {
  const cases = [
    { token: tokenB, appId: t.app.id },
    { token: tokenA, appId: otherAppId },
  ]
  for (const { token, appId } of cases) {
    const res = await smartWalletRpcRequest(t, {
      token,
      appId,
      chainId: CHAIN,
      method: 'eth_chainId',
    })
    expect(res).toMatchObject({ status: 401, body: { code: 'UNAUTHORIZED' } })
  }
  expect(bundler.requests).toEqual([])
  // Each token works with its own app (the control).
  for (const { token, appId } of [
    { token: tokenA, appId: t.app.id },
    { token: tokenB, appId: otherAppId },
  ]) {
    const res = await t.request(routes.smartWalletRpc(CHAIN), {
      token,
      appId,
      body: { jsonrpc: '2.0', id: 7, method: 'eth_chainId' },
    })
    expect(res.body).toEqual({ jsonrpc: '2.0', id: 7, result: '0x2105' })
  }
  expect(bundler.requests).toHaveLength(2)
})
