import { routes } from '@latchkey/protocol'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { getTestInstance, type TestInstance } from '../test/instance.ts'
import {
  setSmartWallets,
  smartWalletRpcRequest,
  startRecordingPeer,
} from './paymaster.test-helper.ts'

// The route needs a live access token of the app's user: none, a forged one
// (another signature), or one whose session logged out (a stolen token
// replayed after the user signed out) is refused 401, and nothing reaches
// the bundler.
const CHAIN = 8453
let t: TestInstance
let bundler: Awaited<ReturnType<typeof startRecordingPeer>>
beforeAll(async () => {
  t = await getTestInstance()
  bundler = await startRecordingPeer()
  await setSmartWallets(t, {
    enabled: true,
    chains: [{ chain_id: CHAIN, bundler_url: bundler.url }],
  })
})
afterAll(async () => {
  await t.close()
  await bundler.close()
})

const call = (token?: string) =>
  smartWalletRpcRequest(t, {
    ...(token !== undefined ? { token } : {}),
    chainId: CHAIN,
    method: 'eth_supportedEntryPoints',
  })

it('refuses a request without a token, with a forged one, and after logout', async () => {
  const auth = await t.login('stolen@example.com')
  const token = auth.token ?? ''
  expect((await call(token)).status).toBe(200)
  expect(bundler.requests).toHaveLength(1)

  const [header, payload, signature = ''] = token.split('.')
  const forged = `${header}.${payload}.${signature.slice(0, -4)}AAAA`
  for (const bad of [undefined, '', 'not-a-token', forged])
    expect(await call(bad)).toMatchObject({ status: 401, body: { code: 'UNAUTHORIZED' } })

  const logout = await t.request(routes.sessionLogout, {
    token,
    body: { refresh_token: auth.refresh_token },
  })
  expect(logout.status).toBe(200)
  expect(await call(token)).toMatchObject({ status: 401, body: { code: 'UNAUTHORIZED' } })
  expect(bundler.requests).toHaveLength(1)
})
