import { entryPoint07Address } from 'viem/account-abstraction'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { getTestInstance, type TestInstance } from '../test/instance.ts'
import {
  setSmartWallets,
  smartWalletRpcRequest,
  startRecordingPeer,
} from './paymaster.test-helper.ts'
import { BUNDLER_METHODS } from './rpc.ts'

// Only the listed ERC-4337 methods reach the bundler: any other method (a
// node method, a bundler's debug or admin method) is -32601 and is not
// relayed. What is relayed carries the method and params only: never the
// caller's token, app id or cookies. The bundler's own errors come back as
// JSON-RPC errors.
const CHAIN = 8453
let t: TestInstance
let token: string
let bundler: Awaited<ReturnType<typeof startRecordingPeer>>
beforeAll(async () => {
  t = await getTestInstance()
  bundler = await startRecordingPeer((method) =>
    method === 'eth_getUserOperationByHash'
      ? { error: { code: -32602, message: 'Missing/invalid userOpHash' } }
      : { result: [entryPoint07Address] },
  )
  await setSmartWallets(t, {
    enabled: true,
    chains: [{ chain_id: CHAIN, bundler_url: bundler.url }],
  })
  token = (await t.login('methods@example.com')).token ?? ''
})
afterAll(async () => {
  await t.close()
  await bundler.close()
})

it('refuses methods outside the list without relaying them', async () => {
  for (const method of [
    'eth_sendRawTransaction',
    'eth_call',
    'eth_accounts',
    'debug_bundler_clearState',
    'debug_bundler_setBundlingMode',
    'pimlico_sendUserOperationNow',
    'pm_sponsorUserOperation',
    'eth_supportedentrypoints',
  ]) {
    const res = await smartWalletRpcRequest(t, { token, chainId: CHAIN, method, params: [] })
    expect({ method, status: res.status, error: res.body.error }).toMatchObject({
      method,
      status: 200,
      error: { code: -32601, data: { code: 'METHOD_NOT_FOUND' } },
    })
  }
  expect(bundler.requests).toEqual([])
})

it('relays a listed method with its params only, and relays the bundler errors', async () => {
  expect(BUNDLER_METHODS).toContain('eth_supportedEntryPoints')
  const ok = await smartWalletRpcRequest(t, {
    token,
    chainId: CHAIN,
    method: 'eth_supportedEntryPoints',
  })
  expect(ok.body).toEqual({ jsonrpc: '2.0', id: 1, result: [entryPoint07Address] })
  const refused = await smartWalletRpcRequest(t, {
    token,
    chainId: CHAIN,
    method: 'eth_getUserOperationByHash',
    params: ['0x12'],
  })
  expect(refused.body.error).toEqual({ code: -32602, message: 'Missing/invalid userOpHash' })

  const [first] = bundler.requests
  expect(first?.body).toEqual({
    jsonrpc: '2.0',
    id: 1,
    method: 'eth_supportedEntryPoints',
    params: [],
  })
  const forwarded = JSON.stringify(bundler.requests.map((r) => r.headers))
  expect(forwarded).not.toContain(token)
  expect(forwarded.toLowerCase()).not.toContain('authorization')
  expect(forwarded).not.toContain(t.app.id)
})
