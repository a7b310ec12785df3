/**
 * @module
 * The load generator's HTTP client: `Deployment.call` over node:http with a
 * keep-alive agent. Measured on the 2-core machine, Node 20's global fetch
 * spends 0.5–1.2 ms of the generator's CPU per request against 0.16–0.19 ms
 * for node:http; the generator shares the cores with the nodes and
 * PostgreSQL, so fetch would take CPU from the servers it measures.
 */
import { Agent, request } from 'node:http'
import { Header, routes } from '@latchkey/protocol'
import { type Answer, type CallOptions, CLUSTER_ORIGIN, type ClusterNode } from './cluster.ts'

export interface LoadClient {
  call(node: ClusterNode, path: string, options?: CallOptions): Promise<Answer>
  /** The newest code the dev mailbox got for `email`, read on `node`. */
  mailboxCode(node: ClusterNode, email: string): Promise<string>
  close(): void
}

/** A client for `appId`'s deployment with at most `maxSockets` connections per node. */
export function createLoadClient(appId: string, maxSockets: number): LoadClient {
  // A free socket is dropped after 2 s idle, well before the server's keep-alive
  // timeout (Node's default, 5 s): reusing one the server is closing fails with
  // ECONNRESET, and on a starved machine the client sees the server's FIN late.
  const agent = new Agent({ keepAlive: true, maxSockets, timeout: 2_000 })
  const call: LoadClient['call'] = (node, path, o = {}) => {
    const body = o.body === undefined ? undefined : JSON.stringify(o.body)
    const headers: Record<string, string | number> = {
      origin: o.origin ?? CLUSTER_ORIGIN,
      ...o.headers,
    }
    if (o.app !== false) headers[Header.appId] = appId
    if (o.token) headers.authorization = `Bearer ${o.token}`
    if (body !== undefined) {
      headers['content-type'] = 'application/json'
      headers['content-length'] = Buffer.byteLength(body)
    }
    const url = new URL(path, node.url)
    return new Promise((resolve, reject) => {
      const req = request(
        url,
        { method: body === undefined ? 'GET' : 'POST', agent, headers },
        (res) => {
          let text = ''
          res.setEncoding('utf8')
          res.on('data', (chunk: string) => {
            text += chunk
          })
          res.on('end', () => {
            try {
              resolve({ status: res.statusCode ?? 0, body: text ? JSON.parse(text) : null })
            } catch (error) {
              reject(error)
            }
          })
          res.on('error', reject)
        },
      )
      req.on('error', reject)
      req.end(body)
    })
  }
  return {
    call,
    async mailboxCode(node, email) {
      const { body } = await call(node, `${routes.devMailbox}?to=${encodeURIComponent(email)}`, {
        app: false,
      })
      const code = body?.messages?.[0]?.code
      if (!code) throw new Error(`no code for ${email} on node ${node.name}`)
      return code
    },
    close: () => agent.destroy(),
  }
}
