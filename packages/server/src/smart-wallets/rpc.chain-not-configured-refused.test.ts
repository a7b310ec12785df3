import { routes } from '@latchkey/protocol'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { getTestInstance, type TestInstance } from '../test/instance.ts'
import {
  linkSmartWalletRow,
  paymasterParams,
  rpcUserOperation,
  setSmartWallets,
  smartWalletRpcRequest,
  startRecordingPeer,
} from './paymaster.test-helper.ts'

// Only the app's configured chains are served, and only while smart wallets
// are on: another chain, a malformed chain id, or an app that turned smart
// wallets off gets JSON-RPC -32001 SMART_WALLET_CHAIN_NOT_CONFIGURED, and
// nothing is relayed. A chain without a paymaster is not sponsored.
const CHAIN = 8453
let t: TestInstance
let token: string
let bundler: Awaited<ReturnType<typeof startRecordingPeer>>
beforeAll(async () => {
  t = await getTestInstance()
  bundler = await startRecordingPeer()
  token = (await t.login('chains@example.com')).token ?? ''
})
afterAll(async () => {
  await t.close()
  await bundler.close()
})

const notConfigured = { code: -32001, data: { code: 'SMART_WALLET_CHAIN_NOT_CONFIGURED' } }

it('refuses an app without smart wallets, another chain, and smart wallets turned off', async () => {
  const call = (chainId: number) =>
    smartWalletRpcRequest(t, { token, chainId, method: 'eth_chainId' })
  expect((await call(CHAIN)).body.error).toMatchObject(notConfigured)

  await setSmartWallets(t, {
    enabled: true,
    chains: [{ chain_id: CHAIN, bundler_url: bundler.url }],
  })
  expect((await call(1)).body.error).toMatchObject(notConfigured)
  for (const chainId of ['0', '-1', 'base', '0x2105', '99999999999999999999'] as const) {
    const res = await t.request(routes.smartWalletRpc(chainId as unknown as number), {
      token,
      body: { jsonrpc: '2.0', id: 1, method: 'eth_chainId' },
    })
    expect(res.body.error).toMatchObject(notConfigured)
  }
  expect((await call(CHAIN)).body.result).toBe('0x2105')

  await setSmartWallets(t, {
    enabled: false,
    chains: [{ chain_id: CHAIN, bundler_url: bundler.url }],
  })
  expect((await call(CHAIN)).body.error).toMatchObject(notConfigured)
  expect(bundler.requests).toHaveLength(1)
})

it('a chain without a paymaster answers pm_* with SMART_WALLET_NOT_SPONSORED', async () => {
  const auth = await t.login('unsponsored@example.com')
  await setSmartWallets(t, {
    enabled: true,
    chains: [{ chain_id: CHAIN, bundler_url: bundler.url }],
  })
  const sender = '0x00000000000000000000000000000000000a11ce'
  await linkSmartWalletRow(t, auth.user.id, sender)
  const res = await smartWalletRpcRequest(t, {
    token: auth.token ?? '',
    chainId: CHAIN,
    method: 'pm_getPaymasterStubData',
    params: paymasterParams(rpcUserOperation(sender, 0n), CHAIN),
  })
  expect(res.body.error).toMatchObject({
    code: -32001,
    data: { code: 'SMART_WALLET_NOT_SPONSORED' },
  })
})
