import type { Server } from 'node:http'
import { serve } from '@hono/node-server'
import type { LatchkeyServerOptions } from './config.ts'
import { createLatchkeyServer, type LatchkeyServer } from './server.ts'

export interface StartServerOptions extends LatchkeyServerOptions {
  /** Port to listen on; 0 picks a free one (default 8787). */
  port?: number
  /** Interface to bind (default 127.0.0.1). */
  hostname?: string
  /**
   * On `close()`, how long requests in flight may take to finish before their
   * connections are cut (default 10 s; env `LATCHKEY_SHUTDOWN_TIMEOUT_MS`).
   */
  shutdownTimeoutMs?: number
}

/** Default drain bound of `close()` (docs/operations.md). */
export const DEFAULT_SHUTDOWN_TIMEOUT_MS = 10_000

export interface RunningServer {
  /** Where the server listens, e.g. http://127.0.0.1:8787. */
  url: string
  port: number
  server: LatchkeyServer
  /**
   * Graceful stop: `/ready` answers 503 at once, the port stops accepting,
   * idle keep-alive connections close, requests in flight finish (cut after
   * `shutdownTimeoutMs`), then the database, Redis and timers close.
   */
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
  // Handlers still running. A client that hangs up does not stop its
  // handler, but its socket no longer holds `http.close()` back: close()
  // waits for these too before the database goes.
  let inFlight = 0
  let settled: (() => void) | null = null
  const track = (answer: Response | Promise<Response>) => {
    if (!(answer instanceof Promise)) return answer
    inFlight++
    return answer.finally(() => {
      if (--inFlight === 0) settled?.()
    })
  }
  const handlersDone = (withinMs: number) =>
    inFlight === 0
      ? Promise.resolve()
      : new Promise<void>((resolve) => {
          settled = resolve
          setTimeout(resolve, Math.max(0, withinMs)).unref()
        })
  const notReady = () =>
    new Response(JSON.stringify({ code: 'NOT_READY', message: 'Not ready: starting' }), {
      status: 503,
      headers: { 'content-type': 'application/json' },
    })
  const { server: http, port } = await new Promise<{ server: Server; port: number }>(
    (resolve, reject) => {
      const server = serve(
        {
          fetch: (request, env) =>
            latchkey ? track(latchkey.app.fetch(request, env)) : notReady(),
          port: options.port ?? 8787,
          hostname,
        },
        // Plain HTTP/1.1 (no createServer option): a node:http Server.
        (info) => resolve({ server: server as Server, port: info.port }),
      )
      server.once('error', reject)
    },
  )
  let draining = false
  // While draining, a connection whose request just ended is idle: close it at
  // once instead of keeping it alive for a request that would never be served.
  http.on('request', (_request, response) => {
    response.once('finish', () => {
      if (draining) setImmediate(() => http.closeIdleConnections())
    })
  })
  const closeHttp = (drainMs: number) =>
    new Promise<void>((resolve) => {
      draining = true
      const cut = setTimeout(() => http.closeAllConnections(), drainMs)
      cut.unref()
      http.close(() => {
        clearTimeout(cut)
        resolve()
      })
      http.closeIdleConnections()
    })
  try {
    latchkey = await createLatchkeyServer({ ...options, port })
  } catch (error) {
    await closeHttp(0)
    throw error
  }
  const started = latchkey
  const host = hostname.includes(':') ? `[${hostname}]` : hostname
  return {
    url: `http://${host}:${port}`,
    port,
    server: started,
    async close() {
      started.startDraining()
      const drainMs = options.shutdownTimeoutMs ?? DEFAULT_SHUTDOWN_TIMEOUT_MS
      const deadline = Date.now() + drainMs
      await closeHttp(drainMs)
      await handlersDone(deadline - Date.now())
      await started.close()
    },
  }
}
