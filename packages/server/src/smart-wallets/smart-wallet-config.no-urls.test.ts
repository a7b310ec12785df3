import { appConfigSchema, routes } from '@latchkey/protocol'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { getTestInstance, type TestInstance } from '../test/instance.ts'
import { setSmartWallets } from './paymaster.test-helper.ts'

// The app's public config says which type and chains, and which are
// sponsored, but carries no bundler or paymaster URL, no paymaster context
// and no paymaster address: they may hold API keys, and the browser reaches
// them through the server's RPC route only.
const BUNDLER = 'https://api.pimlico.io/v2/8453/rpc?apikey=pim_secretbundler'
const PAYMASTER = 'https://paymaster.example/rpc?key=secretpaymaster'
const CONTEXT = 'sp_secretpolicy'
const ADDRESS = '0x00000000000000000000000000000000000bea75'
let t: TestInstance
beforeAll(async () => {
  t = await getTestInstance()
})
afterAll(() => t.close())

it('is null while smart wallets are off', async () => {
  expect((await t.request(routes.appConfig(t.app.id))).body.smart_wallet_config).toBeNull()
  await setSmartWallets(t, { chains: [{ chain_id: 8453, bundler_url: BUNDLER }] })
  expect((await t.request(routes.appConfig(t.app.id))).body.smart_wallet_config).toBeNull()
})

it('names the type, version and sponsored chains, and no URL', async () => {
  await setSmartWallets(t, {
    enabled: true,
    type: 'simple',
    chains: [
      { chain_id: 8453, bundler_url: BUNDLER, paymaster: { kind: 'server', address: ADDRESS } },
      {
        chain_id: 10,
        bundler_url: BUNDLER,
        paymaster: { kind: 'erc7677', url: PAYMASTER, context: { sponsorshipPolicyId: CONTEXT } },
      },
      { chain_id: 1, bundler_url: BUNDLER },
    ],
    sponsorship_policy: { max_operations_per_user_per_day: 5 },
  })
  const res = await t.request(routes.appConfig(t.app.id))
  expect(res.status).toBe(200)
  const config = appConfigSchema.parse(res.body)
  expect(config.smart_wallet_config).toEqual({
    type: 'simple',
    version: '0.7',
    chains: [
      { chain_id: 8453, sponsored: true },
      { chain_id: 10, sponsored: true },
      { chain_id: 1, sponsored: false },
    ],
  })
  const text = JSON.stringify(res.body)
  for (const secret of ['pimlico', 'secretbundler', 'paymaster.example', CONTEXT, ADDRESS])
    expect(text).not.toContain(secret)
  expect(JSON.stringify(config.smart_wallet_config)).not.toContain('http')
})
