import type { AddressInfo, Server, Socket } from 'node:net'
import { connect } from 'node:net'
import { serve } from '@hono/node-server'

export interface Listening {
  port: number
  /** Resolves with the server's side of the next connection it accepts (its `bytesRead` is what the process consumed). */
  nextConnection(): Promise<Socket>
  close(): Promise<void>
}

type Fetch = Parameters<typeof serve>[0]['fetch']

/**
 * Serves `fetch` on 127.0.0.1 on a free port through @hono/node-server, as
 * `startServer` does, for tests that need a real socket: the Host header, the
 * request line and chunked bodies as Node parses them.
 *
 * @example
 * const http = await listen(t.server.app.fetch)
 * const accepted = http.nextConnection()
 * const answer = await sendRaw(http.port, `GET /health HTTP/1.1\r\nHost: evil.test\r\n\r\n`)
 */
export async function listen(fetch: Fetch): Promise<Listening> {
  const server = await new Promise<Server>((resolve, reject) => {
    const s = serve({ fetch, port: 0, hostname: '127.0.0.1' }, () => resolve(s as Server))
    s.once('error', reject)
  })
  const waiting: Array<(socket: Socket) => void> = []
  server.on('connection', (socket: Socket) => waiting.shift()?.(socket))
  return {
    port: (server.address() as AddressInfo).port,
    nextConnection: () => new Promise((resolve) => waiting.push(resolve)),
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve())
        ;(server as { closeAllConnections?: () => void }).closeAllConnections?.()
      }),
  }
}

export interface RawAnswer {
  status: number
  headers: Record<string, string>
  body: string
}

/**
 * Writes `request` as is (request line, headers, body) on a new connection and
 * reads the answer until the server closes it; send `Connection: close`.
 */
export function sendRaw(port: number, request: string): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1')
    let received = ''
    socket.setEncoding('utf8')
    socket.on('data', (chunk: string) => {
      received += chunk
    })
    socket.on('error', reject)
    socket.on('close', () => {
      try {
        resolve(parseAnswer(received))
      } catch (error) {
        reject(error)
      }
    })
    socket.write(request)
  })
}

/** Parses a Content-Length (or empty) HTTP/1.1 answer. */
export function parseAnswer(text: string): RawAnswer {
  const end = text.indexOf('\r\n\r\n')
  if (end < 0) throw new Error(`no HTTP answer: ${JSON.stringify(text.slice(0, 200))}`)
  const [statusLine = '', ...lines] = text.slice(0, end).split('\r\n')
  const headers: Record<string, string> = {}
  for (const line of lines) {
    const colon = line.indexOf(':')
    headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim()
  }
  return { status: Number(statusLine.split(' ')[1]), headers, body: text.slice(end + 4) }
}
