import { mkdtempSync, rmSync } from 'node:fs'
import { connect } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Header, routes } from '@latchkey/protocol'
import { afterEach, beforeEach, expect, it } from 'vitest'
import type { EmailSender } from './adapters/email/types.ts'
import { createApp } from './apps/service.ts'
import { silentLogger } from './config.ts'
import { startServer } from './start.ts'

/** An email sender that holds every send until the test releases it: a request in flight. */
function heldEmailSender() {
  let entered!: () => void
  let release!: () => void
  const started = new Promise<void>((resolve) => {
    entered = resolve
  })
  const released = new Promise<void>((resolve) => {
    release = resolve
  })
  const sender: EmailSender = {
    kind: 'held',
    async send() {
      entered()
      await released
    },
  }
  return { sender, started, release }
}

/** Opens a TCP connection to the port: resolves once connected, rejects with the error's code. */
const tryConnect = (port: number) =>
  new Promise<void>((resolve, reject) => {
    const socket = connect(port, '127.0.0.1')
    socket.once('connect', () => {
      socket.destroy()
      resolve()
    })
    socket.once('error', (error: NodeJS.ErrnoException) => reject(new Error(error.code)))
  })

let dataDir: string
beforeEach(() => {
  dataDir = mkdtempSync(join(tmpdir(), 'latchkey-drain-'))
})
afterEach(() => rmSync(dataDir, { recursive: true, force: true }))

async function startWithHeldRequest(shutdownTimeoutMs?: number) {
  const held = heldEmailSender()
  const running = await startServer({
    port: 0,
    dataDir,
    logger: silentLogger,
    emailSender: held.sender,
    purgeIntervalMs: 0,
    ...(shutdownTimeoutMs !== undefined ? { shutdownTimeoutMs } : {}),
  })
  const { app } = await createApp(running.server.db, { name: 'Drain', origins: ['http://a.test'] })
  expect((await fetch(`${running.url}${routes.ready}`)).status).toBe(200)
  const inFlight = fetch(`${running.url}${routes.emailInit}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', [Header.appId]: app.id },
    body: JSON.stringify({ email: 'drain@example.com' }),
  })
  await held.started
  return { running, held, inFlight }
}

it('close() drains: /ready goes 503, new connections are refused, the request in flight ends 200', async () => {
  const { running, held, inFlight } = await startWithHeldRequest()
  let closed = false
  const closing = running.close().then(() => {
    closed = true
  })

  const ready = await running.server.app.request(routes.ready)
  expect(ready.status).toBe(503)
  expect((await ready.json()).code).toBe('NOT_READY')
  await expect(tryConnect(running.port)).rejects.toThrow('ECONNREFUSED')
  expect(closed).toBe(false)

  held.release()
  const res = await inFlight
  expect(res.status).toBe(200)
  expect(await res.json()).toMatchObject({ success: true })
  await closing
  expect(closed).toBe(true)
  // The database is closed once the drain is over.
  await expect(running.server.app.request(routes.health)).resolves.toHaveProperty('status', 500)
})

it('a request still running when the drain bound is reached is cut, and close() completes', async () => {
  const { running, held, inFlight } = await startWithHeldRequest(0)
  // Watched from now: the cut can reject it while close() is still running.
  const outcome = inFlight.then(
    () => 'answered',
    () => 'cut',
  )
  await running.close()
  await expect(outcome).resolves.toBe('cut')
  await expect(tryConnect(running.port)).rejects.toThrow('ECONNREFUSED')
  held.release()
})

it('waits for a handler whose client hung up before it closes the database', async () => {
  const held = heldEmailSender()
  const errors: string[] = []
  const running = await startServer({
    port: 0,
    dataDir,
    logger: { ...silentLogger, error: (message: string) => errors.push(message) },
    emailSender: held.sender,
    purgeIntervalMs: 0,
  })
  const { app } = await createApp(running.server.db, { name: 'Drain', origins: ['http://a.test'] })
  const hangUp = new AbortController()
  const gone = fetch(`${running.url}${routes.emailInit}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', [Header.appId]: app.id },
    body: JSON.stringify({ email: 'hangs-up@example.com' }),
    signal: hangUp.signal,
  })
  await held.started
  hangUp.abort()
  await expect(gone).rejects.toThrow()

  let closed = false
  const closing = running.close().then(() => {
    closed = true
  })
  // No connection is left, but the handler is still in the email send.
  await expect(tryConnect(running.port)).rejects.toThrow('ECONNREFUSED')
  expect(closed).toBe(false)
  held.release()
  await closing
  // The handler finished on an open database: nothing failed.
  expect(errors).toEqual([])
})
