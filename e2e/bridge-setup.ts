import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { join } from 'node:path'
import type { ensureApp, LatchkeyServer } from '@latchkey/server'
import type * as FakeRelayModule from '../packages/core/src/test/fake-relay.ts'

/**
 * The bridge (Relay's API) for the browser tests. The server's
 * `funding.bridge` names the local Relay (packages/core/src/test/fake-relay.ts:
 * the documented `POST /quote` and `GET /requests/v2?hash=`, CORS open), and
 * the modal calls it from the page. The fake lives in the global setup's
 * process, so a test drives it through `controlUrl`:
 * `POST /statuses?hash=&statuses=pending,success` (what Relay reports for a
 * deposit, one per read, the last repeating), `GET /quotes` (the quote
 * bodies received), `GET /status-reads` (the hashes read).
 */
export interface E2EBridge {
  /** `funding.bridge.apiUrl` and `testnetApiUrl` of the server. */
  apiUrl: string
  controlUrl: string
  /** Creates the app `id` that funds by wallet transfer and Receive, bridging on. */
  addApp(
    server: LatchkeyServer,
    ensure: typeof ensureApp,
    id: string,
    origins: string[],
  ): Promise<void>
  close(): Promise<void>
}

/** Starts the local Relay and its control server; `load` imports a workspace source file. */
export async function startE2EBridge(
  load: (path: string) => Promise<unknown>,
  root: string,
): Promise<E2EBridge> {
  const { startFakeRelay } = (await load(
    join(root, 'packages/core/src/test/fake-relay.ts'),
  )) as typeof FakeRelayModule
  const relay = await startFakeRelay()
  const json = (res: import('node:http').ServerResponse, body: unknown) => {
    res.writeHead(200, { 'content-type': 'application/json' })
    res.end(JSON.stringify(body))
  }
  const control = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://control')
    if (req.method === 'POST' && url.pathname === '/statuses') {
      const hash = url.searchParams.get('hash')
      const statuses = url.searchParams.get('statuses')?.split(',').filter(Boolean) ?? []
      if (!hash || statuses.length === 0) {
        res.writeHead(400).end()
        return
      }
      relay.setStatuses(hash, statuses)
      res.writeHead(204).end()
      return
    }
    if (req.method === 'GET' && url.pathname === '/quotes') return json(res, relay.quotes)
    if (req.method === 'GET' && url.pathname === '/status-reads')
      return json(res, relay.statusReads)
    res.writeHead(404).end()
  })
  await new Promise<void>((resolve) => control.listen(0, '127.0.0.1', resolve))
  const { port } = control.address() as AddressInfo
  return {
    apiUrl: relay.url,
    controlUrl: `http://127.0.0.1:${port}`,
    async addApp(server, ensure, id, origins) {
      await ensure(server.db, {
        id,
        name: 'E2E Bridge',
        origins,
        settings: {
          login_methods: { email: true },
          funding: {
            options: [
              { method: 'wallets', provider: null },
              { method: 'manual', provider: null },
            ],
            default_recommended_amount: '0.5',
            cross_chain_bridging_enabled: true,
          },
        },
      })
    },
    async close() {
      await new Promise<void>((resolve) => control.close(() => resolve()))
      await relay.close()
    },
  }
}
