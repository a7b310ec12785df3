import { createServer, type Server } from 'node:http'
import { afterAll, afterEach, beforeAll, expect, it, vi } from 'vitest'
import { RELAY_TIMEOUT_MS, relayJsonRpc } from './relay.ts'
import { SmartWalletRpcError } from './rpc-errors.ts'

// A bundler that never answers does not hold the request: after
// RELAY_TIMEOUT_MS the relay gives up with BUNDLER_UNAVAILABLE (JSON-RPC
// -32002), a message that names neither the URL nor its API key. Fake
// timers drive the clock. An answer that is not JSON-RPC is refused alike.
let hanging: Server
let url: string
const held: Array<() => void> = []
beforeAll(async () => {
  hanging = createServer((req, res) => {
    req.resume()
    if (req.url?.startsWith('/html')) res.end('<html>bad gateway</html>')
    else held.push(() => res.end())
  })
  await new Promise<void>((resolve) => hanging.listen(0, '127.0.0.1', resolve))
  url = `http://127.0.0.1:${(hanging.address() as { port: number }).port}`
})
afterEach(() => vi.useRealTimers())
afterAll(async () => {
  for (const release of held) release()
  await new Promise((resolve) => hanging.close(resolve))
})

it('gives up after the timeout with BUNDLER_UNAVAILABLE', async () => {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] })
  const relayed = relayJsonRpc(
    `${url}/rpc?apikey=secret123`,
    'eth_chainId',
    [],
    'BUNDLER_UNAVAILABLE',
  )
  let done = false
  const settled = relayed.then(
    () => {
      done = true
    },
    (error: unknown) => {
      done = true
      return error
    },
  )
  await vi.advanceTimersByTimeAsync(RELAY_TIMEOUT_MS - 1)
  expect(done).toBe(false)
  await vi.advanceTimersByTimeAsync(1)
  const error = (await settled) as SmartWalletRpcError
  expect(error).toBeInstanceOf(SmartWalletRpcError)
  expect(error.toJsonRpc()).toMatchObject({
    code: -32002,
    data: { code: 'BUNDLER_UNAVAILABLE' },
  })
  expect(error.message).toBe('The bundler did not answer (timed out).')
  expect(error.message).not.toContain('secret123')
})

it('refuses an answer that is not JSON-RPC', async () => {
  await expect(
    relayJsonRpc(`${url}/html`, 'pm_getPaymasterData', [], 'PAYMASTER_UNAVAILABLE'),
  ).rejects.toThrow('The paymaster service did not answer (HTTP 200).')
})
