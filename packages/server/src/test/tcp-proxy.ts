/**
 * @module
 * A TCP proxy on loopback for fault tests (faults.*.test.ts): the servers
 * under test reach PostgreSQL or Redis through it, and the test takes the
 * service away and gives it back without touching the machine's own
 * PostgreSQL or Redis, which other tests use at the same time.
 */
import { createServer, type Server, Socket } from 'node:net'

export interface TcpProxy {
  /** The loopback port clients connect to. */
  port: number
  /** Destroys every open connection and refuses new ones (ECONNREFUSED), as a stopped service would. */
  cut(): Promise<void>
  /** Accepts connections again, on the same port. */
  restore(): Promise<void>
  /** Connections made through the proxy so far. */
  connections(): number
  close(): Promise<void>
}

const listen = (server: Server, port: number) =>
  new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(port, '127.0.0.1', () => {
      server.off('error', reject)
      resolve()
    })
  })

const closeServer = (server: Server) =>
  new Promise<void>((resolve) => (server.listening ? server.close(() => resolve()) : resolve()))

/**
 * Starts a proxy to `target` (a port on 127.0.0.1).
 *
 * @example
 * const proxy = await startTcpProxy(5432)
 * // databaseUrl: postgres://postgres@127.0.0.1:${proxy.port}/test
 * await proxy.cut() // every connection dies; connects are refused
 * await proxy.restore()
 */
export async function startTcpProxy(target: number): Promise<TcpProxy> {
  const open = new Set<Socket>()
  let made = 0
  const accept = (client: Socket) => {
    made++
    const upstream = new Socket()
    const pair = [client, upstream]
    for (const socket of pair) {
      open.add(socket)
      // A reset on one side ends both; errors are the point of this proxy, not failures of it.
      socket.on('error', () => {})
      socket.on('close', () => {
        open.delete(socket)
        for (const other of pair) other.destroy()
      })
    }
    upstream.connect(target, '127.0.0.1')
    client.pipe(upstream).pipe(client)
  }
  let server = createServer(accept)
  await listen(server, 0)
  const address = server.address()
  if (!address || typeof address === 'string') throw new Error('proxy has no port')
  const port = address.port

  return {
    port,
    async cut() {
      const closed = closeServer(server)
      for (const socket of open) socket.destroy()
      await closed
    },
    async restore() {
      if (server.listening) return
      server = createServer(accept)
      await listen(server, port)
    },
    connections: () => made,
    async close() {
      const closed = closeServer(server)
      for (const socket of open) socket.destroy()
      await closed
    },
  }
}
