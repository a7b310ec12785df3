import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { join } from 'node:path'
import type { ensureApp, LatchkeyServer } from '@latchkey/server'
import type * as FakeCoinbaseModule from '../packages/server/src/test/fake-coinbase.ts'

/**
 * Coinbase Onramp for the browser tests. The server talks to the local
 * Coinbase (packages/server/src/test/fake-coinbase.ts: the documented Session
 * Token and Transaction Status APIs, the CDP JWT verified) with a fresh CDP
 * key; its pay page is a host that does not resolve, which the tests route to
 * a stand-in page. The fake lives in the global setup's process, so a test
 * records a purchase through `controlUrl`: `POST /transactions?partnerUserRef=&status=`
 * (what Coinbase would list once the user buys), `GET /requests` (what
 * reached Coinbase).
 */
export interface E2ECoinbase {
  /** `funding.coinbase.apiUrl` of the server. */
  apiUrl: string
  /** `funding.coinbase.payUrl` of the server (routed by the tests). */
  payUrl: string
  controlUrl: string
  /** The CDP key to store as the app's `coinbase-onramp` credential. */
  key: { name: string; secret: string }
  /** Creates the app `id` that funds by Coinbase only (card and exchange), with the CDP key. */
  addApp(
    server: LatchkeyServer,
    ensure: typeof ensureApp,
    id: string,
    origins: string[],
  ): Promise<void>
  close(): Promise<void>
}

export const COINBASE_PAY_URL = 'https://pay.coinbase.e2e.invalid'

/** Starts the fake Coinbase and its control server; `load` imports a workspace source file. */
export async function startE2ECoinbase(
  load: (path: string) => Promise<unknown>,
  root: string,
): Promise<E2ECoinbase> {
  const { createCdpKey, startFakeCoinbase } = (await load(
    join(root, 'packages/server/src/test/fake-coinbase.ts'),
  )) as typeof FakeCoinbaseModule
  const key = createCdpKey('ec')
  const fake = await startFakeCoinbase({ key })
  const control = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://control')
    if (req.method === 'POST' && url.pathname === '/transactions') {
      const ref = url.searchParams.get('partnerUserRef')
      const status = url.searchParams.get('status') as FakeCoinbaseModule.OnrampStatus | null
      if (!ref || !status?.startsWith('ONRAMP_TRANSACTION_STATUS_')) {
        res.writeHead(400).end()
        return
      }
      fake.addTransaction(ref, status)
      res.writeHead(204).end()
      return
    }
    if (req.method === 'GET' && url.pathname === '/requests') {
      res.writeHead(200, { 'content-type': 'application/json' })
      res.end(JSON.stringify(fake.requests))
      return
    }
    res.writeHead(404).end()
  })
  await new Promise<void>((resolve) => control.listen(0, '127.0.0.1', resolve))
  const { port } = control.address() as AddressInfo
  return {
    apiUrl: fake.url,
    payUrl: COINBASE_PAY_URL,
    controlUrl: `http://127.0.0.1:${port}`,
    key: { name: key.name, secret: key.secret },
    async addApp(server, ensure, id, origins) {
      await ensure(server.db, {
        id,
        name: 'E2E Coinbase',
        origins,
        settings: {
          login_methods: { email: true },
          funding: {
            options: [
              { method: 'card', provider: 'coinbase' },
              { method: 'exchange', provider: 'coinbase' },
            ],
            default_recommended_amount: '0.5',
          },
        },
      })
      await server.setAppProviderCredentials(id, {
        provider: 'coinbase-onramp',
        api_key_name: key.name,
        api_key_secret: key.secret,
      })
    },
    async close() {
      await new Promise<void>((resolve) => control.close(() => resolve()))
      await fake.close()
    },
  }
}
