import { randomBytes } from 'node:crypto'
import type { AddressInfo } from 'node:net'
import { type WebSocket, WebSocketServer } from 'ws'

/**
 * A local WalletConnect relay for tests: a WebSocket server on 127.0.0.1
 * speaking the relay's JSON-RPC as `@walletconnect/core` 2.x uses it
 * (`irn_subscribe`, `irn_batchSubscribe`, `irn_unsubscribe`,
 * `irn_batchUnsubscribe`, `irn_publish`, `irn_batchPublish`,
 * `irn_batchFetchMessages`, and the session shortcuts `wc_proposeSession`,
 * `wc_approveSession`). Messages are delivered to subscribers as
 * `irn_subscription` and kept for their TTL: a client subscribing later gets
 * them at once, as from the real relay's mailbox. The `auth` query
 * parameter (the client's JWT) is not checked.
 */
export interface WalletConnectRelay {
  /** `ws://127.0.0.1:<port>`: the `relayUrl` for both peers. */
  url: string
  /** Every relay method called, in order. */
  readonly calls: readonly string[]
  /** Cuts the connections whose request URL (with its `auth`, `ua` query) matches, as a network drop would. */
  dropConnections(match: (url: string) => boolean): void
  close(): Promise<void>
}

interface StoredMessage {
  /** The relay's own id, to deliver a message once per connection. */
  seq: number
  topic: string
  message: string
  publishedAt: number
  tag: number
  attestation?: string
  expiresAt: number
  /** The connection that published it (the relay does not echo it back). */
  from: WebSocket
}

interface Connection {
  /** topic → subscription id */
  topics: Map<string, string>
  delivered: Set<number>
}

type Params = Record<string, unknown>

/** Tags of the messages behind `wc_proposeSession` / `wc_approveSession` (Sign API's wc_sessionPropose req/res, wc_sessionSettle req). */
const TAG = { propose: 1100, proposeResponse: 1101, settle: 1102 }
const FIVE_MINUTES_S = 300

export async function startWalletConnectRelay(): Promise<WalletConnectRelay> {
  const server = new WebSocketServer({ host: '127.0.0.1', port: 0 })
  await new Promise<void>((resolve) => server.once('listening', resolve))
  const connections = new Map<WebSocket, Connection>()
  const urls = new Map<WebSocket, string>()
  let messages: StoredMessage[] = []
  const calls: string[] = []
  let seq = 0
  let requestId = Date.now() * 1000

  function deliver(socket: WebSocket, message: StoredMessage) {
    const connection = connections.get(socket)
    const id = connection?.topics.get(message.topic)
    if (!connection || !id || message.from === socket || connection.delivered.has(message.seq))
      return
    connection.delivered.add(message.seq)
    const { topic, publishedAt, tag, attestation } = message
    const data = { topic, message: message.message, publishedAt, tag, attestation }
    const params = { id, data }
    socket.send(
      JSON.stringify({ id: ++requestId, jsonrpc: '2.0', method: 'irn_subscription', params }),
    )
  }

  function publish(
    from: WebSocket,
    topic: string,
    message: string,
    tag: number,
    ttl: number,
    attestation?: string,
  ) {
    const now = Date.now()
    messages = messages.filter((m) => m.expiresAt > now)
    const stored = {
      seq: ++seq,
      topic,
      message,
      publishedAt: now,
      tag,
      attestation,
      expiresAt: now + ttl * 1000,
      from,
    }
    messages.push(stored)
    for (const socket of connections.keys()) deliver(socket, stored)
  }

  function subscribe(socket: WebSocket, topic: string) {
    const connection = connections.get(socket) as Connection
    const id = connection.topics.get(topic) ?? randomBytes(32).toString('hex')
    connection.topics.set(topic, id)
    // Deliver after the subscribe answer, as the relay does.
    setImmediate(() => {
      for (const message of messages) if (message.topic === topic) deliver(socket, message)
    })
    return id
  }

  /** The relay's answer to one request (JSON-RPC `result`), or an error. */
  function answer(socket: WebSocket, method: string, params: Params): unknown {
    const connection = connections.get(socket) as Connection
    const num = (value: unknown, fallback: number) => (typeof value === 'number' ? value : fallback)
    const attestation = typeof params.attestation === 'string' ? params.attestation : undefined
    switch (method) {
      case 'irn_subscribe':
        return subscribe(socket, String(params.topic))
      case 'irn_batchSubscribe':
        return (params.topics as string[]).map((topic) => subscribe(socket, topic))
      case 'irn_unsubscribe':
        connection.topics.delete(String(params.topic))
        return true
      case 'irn_batchUnsubscribe':
        for (const { topic } of params.subscriptions as { topic: string }[])
          connection.topics.delete(topic)
        return true
      case 'irn_publish':
        publish(
          socket,
          String(params.topic),
          String(params.message),
          num(params.tag, 0),
          num(params.ttl, FIVE_MINUTES_S),
          attestation,
        )
        return true
      case 'irn_batchPublish':
        for (const m of params.messages as Params[])
          publish(
            socket,
            String(m.topic),
            String(m.message),
            num(m.tag, 0),
            num(m.ttl, FIVE_MINUTES_S),
          )
        return true
      case 'irn_batchFetchMessages': {
        // Messages of these topics this connection has not had yet (the others come as irn_subscription).
        const topics = new Set(params.topics as string[])
        const pending = messages.filter(
          (m) => topics.has(m.topic) && m.from !== socket && !connection.delivered.has(m.seq),
        )
        for (const m of pending) connection.delivered.add(m.seq)
        return {
          messages: pending.map(({ topic, message, publishedAt, tag, attestation }) => ({
            topic,
            message,
            publishedAt,
            tag,
            attestation,
          })),
          hasMore: false,
        }
      }
      // The session shortcuts also subscribe the sender: the proposer to the
      // pairing topic (for the answer), the wallet to the new session topic.
      case 'wc_proposeSession':
        subscribe(socket, String(params.pairingTopic))
        publish(
          socket,
          String(params.pairingTopic),
          String(params.sessionProposal),
          TAG.propose,
          num(params.ttl, FIVE_MINUTES_S),
          attestation,
        )
        return true
      case 'wc_approveSession':
        subscribe(socket, String(params.sessionTopic))
        publish(
          socket,
          String(params.pairingTopic),
          String(params.sessionProposalResponse),
          TAG.proposeResponse,
          FIVE_MINUTES_S,
        )
        publish(
          socket,
          String(params.sessionTopic),
          String(params.sessionSettlementRequest),
          TAG.settle,
          FIVE_MINUTES_S,
        )
        return true
      default:
        throw Object.assign(new Error(`Method not found: ${method}`), { code: -32601 })
    }
  }

  server.on('connection', (socket, request) => {
    connections.set(socket, { topics: new Map(), delivered: new Set() })
    urls.set(socket, request.url ?? '')
    socket.on('close', () => {
      connections.delete(socket)
      urls.delete(socket)
    })
    socket.on('message', (raw) => {
      let payload: { id?: number | string; method?: string; params?: Params }
      try {
        payload = JSON.parse(String(raw))
      } catch {
        return
      }
      // Answers to our irn_subscription (the client's acknowledgements) need nothing.
      if (typeof payload.method !== 'string') return
      calls.push(payload.method)
      const reply = (body: Record<string, unknown>) =>
        socket.send(JSON.stringify({ id: payload.id, jsonrpc: '2.0', ...body }))
      try {
        reply({ result: answer(socket, payload.method, payload.params ?? {}) })
      } catch (error) {
        const { code = -32602, message } = error as { code?: number; message: string }
        reply({ error: { code, message } })
      }
    })
  })

  const { port } = server.address() as AddressInfo
  return {
    url: `ws://127.0.0.1:${port}`,
    calls,
    dropConnections(match) {
      for (const [socket, url] of urls) if (match(url)) socket.terminate()
    },
    async close() {
      for (const socket of connections.keys()) socket.terminate()
      await new Promise<void>((resolve, reject) =>
        server.close((error) => (error ? reject(error) : resolve())),
      )
    },
  }
}

/**
 * WalletConnect's own key-value storage in memory, for the wallet side
 * (`@walletconnect/sign-client`; its Node default writes files): values are
 * kept as JSON, as its IndexedDB store does. Our dapp client takes
 * `memoryStorage()` from `external/walletconnect/storage.ts`.
 */
export function memoryWalletConnectStorage() {
  const items = new Map<string, string>()
  return {
    getKeys: async () => [...items.keys()],
    getEntries: async <T = unknown>() =>
      [...items].map(([key, value]) => [key, JSON.parse(value)] as [string, T]),
    getItem: async <T = unknown>(key: string) => {
      const value = items.get(key)
      return value === undefined ? undefined : (JSON.parse(value) as T)
    },
    setItem: async <T = unknown>(key: string, value: T) => {
      items.set(key, JSON.stringify(value))
    },
    removeItem: async (key: string) => {
      items.delete(key)
    },
  }
}
