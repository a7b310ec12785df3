import { createServer, type IncomingHttpHeaders, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import type { Kysely } from 'kysely'
import type { SecretBox } from '../crypto/secrets.ts'
import type { Database } from '../db/types.ts'
import { setWebhookEndpoint } from './endpoints.ts'
import type { WebhookEventType } from './events.ts'

/** One request the receiver got. */
export interface ReceivedWebhook {
  headers: IncomingHttpHeaders
  /** The body exactly as sent. */
  body: string
}

export interface WebhookReceiver {
  url: string
  port: number
  received: ReceivedWebhook[]
  /**
   * The status of the next answers: a number, or 'hang' (never answer).
   * Default 204. Each request takes the next entry; the last one stays.
   */
  answers: Array<number | 'hang'>
  /** Resolves once `count` requests have arrived in all. */
  waitFor(count: number): Promise<ReceivedWebhook[]>
  /** Stops listening (connections refused) until `listen()` again on the same port. */
  close(): Promise<void>
  listen(): Promise<void>
}

/**
 * A real HTTP receiver on 127.0.0.1 (a free port, or `port`), as an app
 * backend runs one: records each request's headers and raw body and answers
 * with the programmed status.
 *
 * @example
 * const receiver = await startWebhookReceiver()
 * receiver.answers = [500, 204]
 */
export async function startWebhookReceiver(port = 0): Promise<WebhookReceiver> {
  const received: ReceivedWebhook[] = []
  const waiting: Array<{ count: number; resolve: (r: ReceivedWebhook[]) => void }> = []
  let server: Server | null = null
  const receiver: WebhookReceiver = {
    url: '',
    port,
    received,
    answers: [204],
    waitFor(count) {
      if (received.length >= count) return Promise.resolve(received)
      return new Promise((resolve) => waiting.push({ count, resolve }))
    },
    close: () =>
      new Promise<void>((resolve) => {
        if (!server) return resolve()
        server.close(() => resolve())
        server.closeAllConnections()
        server = null
      }),
    async listen() {
      const s = createServer((req, res) => {
        const chunks: Buffer[] = []
        req.on('data', (chunk: Buffer) => chunks.push(chunk))
        req.on('end', () => {
          const answer =
            receiver.answers.length > 1 ? receiver.answers.shift() : receiver.answers[0]
          received.push({ headers: req.headers, body: Buffer.concat(chunks).toString('utf8') })
          for (const w of waiting.filter((w) => received.length >= w.count)) {
            waiting.splice(waiting.indexOf(w), 1)
            w.resolve(received)
          }
          if (answer === 'hang') return
          res.writeHead(answer ?? 204).end()
        })
      })
      await new Promise<void>((resolve, reject) => {
        s.once('error', reject)
        s.listen(receiver.port, '127.0.0.1', () => resolve())
      })
      server = s
      receiver.port = (s.address() as AddressInfo).port
      receiver.url = `http://127.0.0.1:${receiver.port}/hooks/latchkey?token=url-secret`
    },
  }
  await receiver.listen()
  return receiver
}

/** Points the app's webhook at `url` (all events unless given); returns its secret. */
export async function setTestWebhook(
  store: { db: Kysely<Database>; secrets: SecretBox },
  appId: string,
  url: string,
  events?: WebhookEventType[],
): Promise<string> {
  const { secret } = await setWebhookEndpoint(store, appId, { url, events, production: false })
  if (!secret) throw new Error('the app had a webhook already')
  return secret
}
