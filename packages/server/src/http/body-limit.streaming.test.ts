import { connect, type Socket } from 'node:net'
import { Header, routes } from '@latchkey/protocol'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { getTestInstance, type TestInstance } from '../test/instance.ts'
import { type Listening, listen, parseAnswer } from '../test/listen.ts'
import { MAX_BODY_BYTES } from './route.ts'

// Request bodies are capped while they stream (docs/security.md, "Request
// bodies"): over a real socket, the server stops reading at MAX_BODY_BYTES,
// answers 400 INVALID_PAYLOAD with `Connection: close` and closes, long before
// a client that keeps sending has sent its body. What the process consumed is
// the server socket's `bytesRead`, not a timing.
let t: TestInstance
let http: Listening
beforeAll(async () => {
  t = await getTestInstance()
  http = await listen(t.server.app.fetch)
})
afterAll(async () => {
  await http?.close()
  await t?.close()
})

/** What the client tries to send: far more than the socket buffers of both ends hold. */
const ATTEMPT = 64 * 1024 * 1024
/** Socket reads and stream queues between the kernel and the route's reader. */
const READ_AHEAD = 256 * 1024

const head = (framing: string) =>
  `POST ${routes.emailInit} HTTP/1.1\r\nHost: 127.0.0.1\r\n${Header.appId}: ${t.app.id}\r\n` +
  `Content-Type: application/json\r\n${framing}\r\n\r\n`

interface Connection {
  socket: Socket
  /** The server's side of this connection. */
  accepted: Promise<Socket>
  /** Everything the server answered, once the connection is closed. */
  closed: Promise<string>
}

async function open(): Promise<Connection> {
  const accepted = http.nextConnection()
  const socket = connect(http.port, '127.0.0.1')
  let received = ''
  socket.setEncoding('utf8')
  socket.on('data', (chunk: string) => {
    received += chunk
  })
  // EPIPE / ECONNRESET once the server has closed: expected while still sending.
  socket.on('error', () => {})
  const closed = new Promise<string>((resolve) => socket.on('close', () => resolve(received)))
  await new Promise((resolve) => socket.once('connect', resolve))
  return { socket, accepted, closed }
}

/** Writes `frame` until `total` bytes are sent or the server closes; each write waits for the previous to drain. */
async function keepSending(socket: Socket, frame: Buffer, total: number): Promise<number> {
  let sent = 0
  let open = true
  socket.once('close', () => {
    open = false
  })
  while (open && sent < total) {
    const flushed = socket.write(frame)
    sent += frame.length
    if (!flushed)
      await new Promise<void>((resolve) => {
        const done = () => {
          socket.off('drain', done)
          socket.off('close', done)
          resolve()
        }
        socket.on('drain', done)
        socket.on('close', done)
      })
  }
  return sent
}

/** Bytes the server read from its socket, once that socket is closed. */
async function consumedBy(server: Socket): Promise<number> {
  if (!server.destroyed) await new Promise((resolve) => server.once('close', resolve))
  return server.bytesRead
}

const chunk = (size: number) => `${size.toString(16)}\r\n${'a'.repeat(size)}\r\n`

it('stops reading a chunked body at the cap and closes before the client has sent it', async () => {
  const before = await t.countRows('otp_codes')
  const { socket, accepted, closed } = await open()
  socket.write(head('Transfer-Encoding: chunked'))
  const sent = await keepSending(socket, Buffer.from(chunk(16 * 1024)), ATTEMPT)
  expect(sent).toBeLessThan(ATTEMPT)
  const answer = await closed

  expect(await consumedBy(await accepted)).toBeLessThan(MAX_BODY_BYTES + READ_AHEAD)
  // The answer may be lost to the reset of a connection closed with unread data.
  if (answer) expect(parseAnswer(answer).body).toContain('INVALID_PAYLOAD')
  expect(await t.countRows('otp_codes')).toBe(before)
})

it('answers a chunked body one byte over the cap with 400 INVALID_PAYLOAD and Connection: close', async () => {
  const { socket, accepted, closed } = await open()
  // The byte over the cap ends what the client sends (no CRLF after it), so the
  // server has read everything when it closes and the answer cannot be lost.
  socket.write(`${head('Transfer-Encoding: chunked')}${chunk(MAX_BODY_BYTES)}1\r\n{`)
  const answer = parseAnswer(await closed)

  expect(answer.status).toBe(400)
  expect(answer.headers.connection).toBe('close')
  expect(JSON.parse(answer.body)).toEqual({
    code: 'INVALID_PAYLOAD',
    message: 'The request body is too large',
  })
  expect(await consumedBy(await accepted)).toBeLessThan(MAX_BODY_BYTES + READ_AHEAD)
})

it('refuses a Content-Length over the cap before reading the body', async () => {
  const { socket, accepted, closed } = await open()
  const request = head(`Content-Length: ${ATTEMPT}`)
  socket.write(request)
  const answer = parseAnswer(await closed)

  expect(answer.status).toBe(400)
  expect(answer.headers.connection).toBe('close')
  expect(JSON.parse(answer.body)).toMatchObject({ code: 'INVALID_PAYLOAD' })
  expect(await consumedBy(await accepted)).toBe(Buffer.byteLength(request))
})

it('stops reading a declared oversized body that the client sends anyway', async () => {
  const { socket, accepted, closed } = await open()
  socket.write(head(`Content-Length: ${ATTEMPT}`))
  const sent = await keepSending(socket, Buffer.alloc(16 * 1024, 'a'), ATTEMPT)
  expect(sent).toBeLessThan(ATTEMPT)
  await closed

  expect(await consumedBy(await accepted)).toBeLessThan(MAX_BODY_BYTES + READ_AHEAD)
})

it('accepts a body of exactly the cap, and counts bytes, not characters', async () => {
  const json = JSON.stringify({ email: 'cap@example.com' })
  const exact = json.padEnd(MAX_BODY_BYTES, ' ')
  expect((await t.request(routes.emailInit, { rawBody: exact })).status).toBe(200)
  expect((await t.request(routes.emailInit, { rawBody: `${exact} ` })).body.message).toBe(
    'The request body is too large',
  )

  // 2 bytes a character: under the cap in characters, over it in bytes.
  const wide = JSON.stringify({ email: 'cap@example.com', pad: 'é'.repeat(MAX_BODY_BYTES / 2) })
  expect(wide.length).toBeLessThan(MAX_BODY_BYTES)
  expect(await t.request(routes.emailInit, { rawBody: wide })).toMatchObject({
    status: 400,
    body: { code: 'INVALID_PAYLOAD', message: 'The request body is too large' },
  })
})
