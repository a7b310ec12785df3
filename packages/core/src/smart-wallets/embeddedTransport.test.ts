import { routes } from '@latchkey/protocol/routes'
import { sessionRoutes } from '@latchkey/protocol/session-routes'
import { createClient } from 'viem'
import { describe, expect, it } from 'vitest'
import { createLatchkeyClient } from '../client.ts'
import { createMemoryStorage } from '../storage.ts'
import {
  APP_ID,
  authResponse,
  createFakeFetch,
  json,
  type RecordedCall,
} from '../test/fake-server.ts'
import { smartWalletRpcTransport } from './embeddedTransport.ts'

// The bundler and paymaster transport: JSON-RPC posted to the server's
// smart-wallet route through the client's HTTP layer, as the logged-in user.

const inSeconds = (s: number) => Math.floor(Date.now() / 1000) + s

function setup(answer: (call: RecordedCall) => Response) {
  const fake = createFakeFetch(answer)
  const client = createLatchkeyClient({
    appId: APP_ID,
    apiUrl: 'http://localhost:8787',
    fetch: fake.fetch,
    storage: createMemoryStorage(),
    cookies: { get: () => null, set() {}, remove() {} },
  })
  const rpc = createClient({ transport: smartWalletRpcTransport(client, 8453) })
  return { client, rpc, calls: fake.calls }
}

describe('smartWalletRpcTransport', () => {
  it("posts one JSON-RPC request to the chain's route with the user's token", async () => {
    const { client, rpc, calls } = setup((call) =>
      json(200, { jsonrpc: '2.0', id: (call.body as { id: number }).id, result: '0x2105' }),
    )
    const login = authResponse({ exp: inSeconds(3600) })
    client.session.applyAuthResponse(login)
    expect(await rpc.request({ method: 'eth_chainId' })).toBe('0x2105')
    expect(calls).toHaveLength(1)
    expect(calls[0]).toMatchObject({
      url: `http://localhost:8787${routes.smartWalletRpc(8453)}`,
      method: 'POST',
      headers: { authorization: `Bearer ${login.token}` },
      body: { jsonrpc: '2.0', method: 'eth_chainId', params: [] },
    })
  })

  it('refreshes an expiring token first and sends the new one', async () => {
    const fresh = authResponse({ exp: inSeconds(3600), refresh: 'r2' })
    const { client, rpc, calls } = setup((call) =>
      call.url.endsWith(routes.smartWalletRpc(8453))
        ? json(200, { jsonrpc: '2.0', id: 1, result: null })
        : json(200, fresh),
    )
    client.session.applyAuthResponse(authResponse({ exp: inSeconds(10), refresh: 'r1' }))
    const receipt = await rpc.request({
      method: 'eth_getUserOperationReceipt' as never,
      params: [`0x${'00'.repeat(32)}`] as never,
    })
    expect(receipt).toBeNull()
    expect(calls.map((c) => c.url.replace('http://localhost:8787', ''))).toEqual([
      sessionRoutes.sessionRefresh,
      routes.smartWalletRpc(8453),
    ])
    expect(calls[1]?.headers.authorization).toBe(`Bearer ${fresh.token}`)
  })

  it("throws the bundler's JSON-RPC error with its code and reason, and does not resend", async () => {
    const { client, rpc, calls } = setup(() =>
      json(200, {
        jsonrpc: '2.0',
        id: 1,
        error: { code: -32500, message: 'AA21 didn\u2019t pay prefund' },
      }),
    )
    client.session.applyAuthResponse(authResponse({ exp: inSeconds(3600) }))
    const error = await rpc
      .request({ method: 'eth_sendUserOperation' as never, params: [{}, '0x'] as never })
      .catch((e: unknown) => e)
    expect(error).toBeInstanceOf(Error)
    expect(error).toMatchObject({ code: -32500 })
    expect(String((error as Error).message)).toContain('AA21')
    expect(calls).toHaveLength(1)
  })

  it('a logged-out client sends nothing', async () => {
    const { rpc, calls } = setup(() => json(500, {}))
    await expect(rpc.request({ method: 'eth_chainId' })).rejects.toMatchObject({
      cause: { code: 'NOT_AUTHENTICATED' },
    })
    expect(calls).toEqual([])
  })
})
