import { randomBytes } from 'node:crypto'
import { routes } from '@latchkey/protocol'
import { afterAll, afterEach, beforeAll, expect, it, vi } from 'vitest'
import { silentLogger } from '../config.ts'
import { connectSqlite } from '../db/connect.ts'
import type { RateLimiter } from '../rate-limit/types.ts'
import { createLatchkeyServer } from '../server.ts'
import { getTestInstance, type TestInstance } from '../test/instance.ts'
import { READY_CHECK_TIMEOUT_MS } from './ready.ts'

let t: TestInstance
beforeAll(async () => {
  t = await getTestInstance()
})
afterAll(() => t.close())
afterEach(() => {
  vi.useRealTimers()
})

/** A limiter whose store answers PING as `ping` says (counting is never reached here). */
const limiterPinging = (ping: () => Promise<void>): RateLimiter => ({
  hit: async () => ({ allowed: true, remaining: 1, resetAt: 0 }),
  peek: async () => 0,
  ping,
})

it('answers 200 ready, without an app id, while the database answers (no Redis configured)', async () => {
  const res = await t.request(routes.ready, { appId: null })
  expect(res.status).toBe(200)
  expect(res.body).toEqual({ status: 'ready' })
})

it('asks Redis too when REDIS_URL is set: 200 while it answers PING', async () => {
  const r = await getTestInstance({ redisUrl: 'redis://127.0.0.1:6379' })
  try {
    const res = await r.request(routes.ready, { appId: null })
    expect(res.status).toBe(200)
    expect(res.body).toEqual({ status: 'ready' })
  } finally {
    await r.close()
  }
})

it('503 NOT_READY naming Redis when its PING fails; /health (liveness) stays 200', async () => {
  const r = await getTestInstance({
    rateLimiter: limiterPinging(() => Promise.reject(new Error('connect ECONNREFUSED'))),
  })
  try {
    const res = await r.request(routes.ready, { appId: null })
    expect(res.status).toBe(503)
    expect(res.body).toEqual({ code: 'NOT_READY', message: 'Not ready: redis not answering' })
    expect((await r.request(routes.health, { appId: null })).status).toBe(200)
  } finally {
    await r.close()
  }
})

it('calls Redis down when PING does not answer within READY_CHECK_TIMEOUT_MS (not at N − 1 ms)', async () => {
  let pinged!: () => void
  const pingStarted = new Promise<void>((resolve) => {
    pinged = resolve
  })
  const r = await getTestInstance({
    rateLimiter: limiterPinging(() => {
      pinged()
      return new Promise<void>(() => {})
    }),
  })
  try {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] })
    let settled = false
    const pending = r.request(routes.ready, { appId: null }).finally(() => {
      settled = true
    })
    await pingStarted
    await vi.advanceTimersByTimeAsync(READY_CHECK_TIMEOUT_MS - 1)
    expect(settled).toBe(false)
    await vi.advanceTimersByTimeAsync(1)
    const res = await pending
    expect(res.status).toBe(503)
    expect(res.body.message).toBe('Not ready: redis not answering')
  } finally {
    vi.useRealTimers()
    await r.close()
  }
})

it('503 NOT_READY naming the database when it does not answer', async () => {
  const db = connectSqlite(':memory:')
  const server = await createLatchkeyServer({
    db,
    masterKey: randomBytes(32),
    logger: silentLogger,
    purgeIntervalMs: 0,
  })
  try {
    await db.destroy()
    const res = await server.app.request(routes.ready)
    expect(res.status).toBe(503)
    expect(await res.json()).toEqual({
      code: 'NOT_READY',
      message: 'Not ready: database not answering',
    })
  } finally {
    await server.close()
  }
})

it('503 NOT_READY from the moment the server drains; every other route still serves', async () => {
  const r = await getTestInstance()
  try {
    r.server.startDraining()
    const res = await r.request(routes.ready, { appId: null })
    expect(res.status).toBe(503)
    expect(res.body).toEqual({ code: 'NOT_READY', message: 'Not ready: shutting down' })
    expect((await r.request(routes.health, { appId: null })).status).toBe(200)
    expect((await r.request(routes.appConfig(r.app.id))).status).toBe(200)
  } finally {
    await r.close()
  }
})
