import { signRelayJwt } from './relay-auth.ts'

// The WalletConnect relay's JSON-RPC over one WebSocket (specs: "Relay RPC"):
// irn_subscribe / irn_unsubscribe / irn_publish out, irn_subscription in
// (acknowledged with `true`), and the Sign API shortcut wc_proposeSession.

/** A message the relay delivered on a subscribed topic. */
export interface RelayMessage {
  topic: string
  /** The envelope, base64. */
  message: string
  tag?: number
  publishedAt?: number
}

export interface PublishOptions {
  ttl: number
  tag: number
  prompt?: boolean
}

export interface RelaySocketOptions {
  relayUrl: string
  projectId: string
  /** The client's ed25519 seed: its relay identity (JWT issuer). */
  seed: Uint8Array
  onMessage(message: RelayMessage): void
  /** Asked when the socket closes: reconnect (a session or a proposal needs the relay)? */
  shouldReconnect(): boolean
}

export interface RelaySocket {
  subscribe(topic: string): Promise<void>
  unsubscribe(topic: string): Promise<void>
  publish(topic: string, message: string, options: PublishOptions): Promise<void>
  /** Any other relay method (`wc_proposeSession`). */
  request(method: string, params: Record<string, unknown>): Promise<unknown>
  /** Closes the socket for good (no reconnect). */
  close(): void
}

interface Pending {
  resolve(result: unknown): void
  reject(error: Error): void
}

const MAX_BACKOFF_MS = 30_000
/** Relay messages are delivered at least once: the last ones seen, to drop repeats. */
const SEEN_LIMIT = 256

/** A JSON-RPC id as WalletConnect makes them: milliseconds × 1000 plus 3 random digits. */
export function payloadId(): number {
  return Date.now() * 1000 + Math.floor(Math.random() * 1000)
}

/** The socket URL: the relay with `auth` (JWT), `projectId` and `ua`, as WalletConnect's core formats it. */
function socketUrl(options: RelaySocketOptions): string {
  const [base = '', query] = options.relayUrl.split('?')
  const params = new URLSearchParams(query)
  params.set('auth', signRelayJwt(options.seed, base))
  params.set('projectId', options.projectId)
  const host = globalThis.location?.host ?? 'node'
  params.set('ua', `wc-2/js-latchkey/web/browser:${host}`)
  return `${base}?${params}`
}

export function createRelaySocket(options: RelaySocketOptions): RelaySocket {
  /** topic → the relay's subscription id */
  const topics = new Map<string, string>()
  const pending = new Map<number, Pending>()
  const seen: string[] = []
  let socket: Promise<WebSocket> | null = null
  let closed = false
  let backoff = 1000
  let retry: ReturnType<typeof setTimeout> | undefined

  function deliver(message: RelayMessage) {
    const key = `${message.topic} ${message.message}`
    if (seen.includes(key)) return
    seen.push(key)
    if (seen.length > SEEN_LIMIT) seen.shift()
    options.onMessage(message)
  }

  function onData(ws: WebSocket, raw: unknown) {
    let payload: {
      id?: number
      method?: string
      params?: { data?: RelayMessage }
      result?: unknown
      error?: { code?: number; message?: string }
    }
    try {
      payload = JSON.parse(String(raw))
    } catch {
      return
    }
    if (payload.method === 'irn_subscription') {
      ws.send(JSON.stringify({ id: payload.id, jsonrpc: '2.0', result: true }))
      const data = payload.params?.data
      if (data && typeof data.topic === 'string' && typeof data.message === 'string') deliver(data)
      return
    }
    const waiting = typeof payload.id === 'number' ? pending.get(payload.id) : undefined
    if (!waiting) return
    pending.delete(payload.id as number)
    if (payload.error)
      waiting.reject(
        Object.assign(new Error(payload.error.message ?? 'Relay error'), {
          code: payload.error.code,
        }),
      )
    else waiting.resolve(payload.result)
  }

  function onClose(ws: Promise<WebSocket>) {
    if (socket !== ws) return
    socket = null
    for (const [id, waiting] of pending) {
      pending.delete(id)
      waiting.reject(new Error('The WalletConnect relay connection closed'))
    }
    if (closed || !options.shouldReconnect()) return
    retry = setTimeout(() => {
      retry = undefined
      void resume().catch(() => undefined)
    }, backoff)
    backoff = Math.min(backoff * 2, MAX_BACKOFF_MS)
  }

  function open(): Promise<WebSocket> {
    if (closed) return Promise.reject(new Error('The WalletConnect client is closed'))
    if (socket) return socket
    const opening = new Promise<WebSocket>((resolve, reject) => {
      const ws = new WebSocket(socketUrl(options))
      ws.addEventListener('open', () => {
        backoff = 1000
        resolve(ws)
      })
      ws.addEventListener('message', (event) => onData(ws, event.data))
      ws.addEventListener('error', () => reject(new Error('Cannot reach the WalletConnect relay')))
      ws.addEventListener('close', () => {
        reject(new Error('The WalletConnect relay closed the connection'))
        onClose(opening)
      })
    })
    socket = opening
    return opening
  }

  async function request(method: string, params: Record<string, unknown>): Promise<unknown> {
    const ws = await open()
    const id = payloadId()
    const result = new Promise<unknown>((resolve, reject) => pending.set(id, { resolve, reject }))
    ws.send(JSON.stringify({ id, jsonrpc: '2.0', method, params }))
    return result
  }

  /** After a reconnect: the subscriptions again, and what the relay kept for them meanwhile. */
  async function resume() {
    const list = [...topics.keys()]
    await Promise.all(list.map((topic) => subscribe(topic)))
    if (list.length === 0) return
    const fetched = (await request('irn_batchFetchMessages', { topics: list }).catch(
      () => null,
    )) as { messages?: RelayMessage[] } | null
    for (const message of fetched?.messages ?? []) deliver(message)
  }

  async function subscribe(topic: string) {
    topics.set(topic, topics.get(topic) ?? '')
    const id = await request('irn_subscribe', { topic })
    if (topics.has(topic)) topics.set(topic, String(id))
  }

  return {
    subscribe,
    async unsubscribe(topic) {
      const id = topics.get(topic)
      topics.delete(topic)
      if (socket && id) await request('irn_unsubscribe', { topic, id }).catch(() => undefined)
    },
    async publish(topic, message, { ttl, tag, prompt }) {
      await request('irn_publish', { topic, message, ttl, tag, ...(prompt ? { prompt } : {}) })
    },
    request,
    close() {
      closed = true
      clearTimeout(retry)
      const current = socket
      socket = null
      for (const [id, waiting] of pending) {
        pending.delete(id)
        waiting.reject(new Error('The WalletConnect client is closed'))
      }
      void current?.then((ws) => ws.close()).catch(() => undefined)
    },
  }
}
