import { type ServerType, serve } from '@hono/node-server'
import type { LatchkeyServerOptions } from './config.ts'
import { createLatchkeyServer, type LatchkeyServer } from './server.ts'

export interface StartServerOptions extends LatchkeyServerOptions {
  /** Port to listen on; 0 picks a free one (default 8787). */
  port?: number
  /** Interface to bind (default 127.0.0.1). */
  hostname?: string
}

export interface RunningServer {
  /** Where the server listens, e.g. http://127.0.0.1:8787. */
  url: string
  port: number
  server: LatchkeyServer
  close(): Promise<void>
}

/**
 * Starts a Latchkey server on Node's HTTP stack. With port 0 the socket is
 * bound first so the default publicUrl (the token issuer) names the real port.
 *
 * @example
 * const { url, close } = await startServer({ ...loadConfigFromEnv(), port: 8787 })
 */
export async function startServer(options: StartServerOptions = {}): Promise<RunningServer> {
  const hostname = options.hostname ?? '127.0.0.1'
  let latchkey: LatchkeyServer | null = null
  const notReady = () =>
    new Response(JSON.stringify({ code: 'INTERNAL_ERROR', message: 'Starting' }), { status: 503 })
  const { server: http, port } = await new Promise<{ server: ServerType; port: number }>(
    (resolve, reject) => {
      const server = serve(
        {
          fetch: (request, env) => (latchkey ? latchkey.app.fetch(request, env) : notReady()),
          port: options.port ?? 8787,
          hostname,
        },
        (info) => resolve({ server, port: info.port }),
      )
      server.once('error', reject)
    },
  )
  const closeHttp = () =>
    new Promise<void>((resolve) => {
      http.close(() => resolve())
      ;(http as { closeAllConnections?: () => void }).closeAllConnections?.()
    })
  try {
    latchkey = await createLatchkeyServer({ ...options, port })
  } catch (error) {
    await closeHttp()
    throw error
  }
  const started = latchkey
  const host = hostname.includes(':') ? `[${hostname}]` : hostname
  return {
    url: `http://${host}:${port}`,
    port,
    server: started,
    async close() {
      await closeHttp()
      await started.close()
    },
  }
}
