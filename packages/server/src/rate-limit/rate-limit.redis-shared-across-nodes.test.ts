import { randomBytes } from 'node:crypto'
import { Header, routes } from '@latchkey/protocol'
import { createClient } from 'redis'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { silentLogger } from '../config.ts'
import { createLatchkeyServer, type LatchkeyServer } from '../server.ts'
import { getTestInstance, type TestInstance } from '../test/instance.ts'
import { hdBody } from '../test/wallets.ts'
import { RedisRateLimiter } from './redis.ts'

// Tracker issue 15, item 3: with Redis every limit is one count for all
// nodes. Two servers on one database (two nodes of one deployment), each
// with its own Redis connection under this file's unique key prefix.
const REDIS_URL = 'redis://127.0.0.1:6379'
const prefix = `latchkey-test:${randomBytes(6).toString('hex')}:`
const HOUR = 60 * 60_000

const limiterA = new RedisRateLimiter(REDIS_URL, { prefix })
const limiterB = new RedisRateLimiter(REDIS_URL, { prefix })
let a: TestInstance
let b: LatchkeyServer

beforeAll(async () => {
  const masterKey = randomBytes(32)
  const rateLimits = {
    codeAttemptsPerIdentifier: { limit: 3, windowMs: HOUR },
    codeAttemptsPerIp: { limit: 3, windowMs: HOUR },
    codeSendsPerIp: { limit: 2, windowMs: HOUR },
    walletKeyRequestsPerIp: { limit: 3, windowMs: HOUR },
  }
  a = await getTestInstance({ masterKey, trustProxy: true, rateLimiter: limiterA, rateLimits })
  b = await createLatchkeyServer({
    db: a.db,
    masterKey,
    publicUrl: 'http://latchkey.test',
    logger: silentLogger,
    now: a.clock.now,
    trustProxy: true,
    rateLimiter: limiterB,
    rateLimits,
  })
})

afterAll(async () => {
  await b.close()
  await a.close()
  await limiterA.close()
  await limiterB.close()
  const redis = createClient({ url: REDIS_URL })
  await redis.connect()
  const keys = await redis.keys(`${prefix}*`)
  if (keys.length) await redis.del(keys)
  await redis.quit()
})

interface NodeRequestOptions {
  ip?: string
  token?: string
  /** As the enclave calls a key route: own origin, and a proof by `a.enclaveKey`. */
  enclave?: boolean
}

/** A request to node B, shaped like `a.request`. */
async function onB(path: string, body: object, options: NodeRequestOptions = {}) {
  const headers: Record<string, string> = {
    [Header.appId]: a.app.id,
    'content-type': 'application/json',
  }
  if (options.ip) headers['x-forwarded-for'] = options.ip
  if (options.token) headers.authorization = `Bearer ${options.token}`
  if (options.enclave) {
    headers.origin = a.ownOrigin
    headers[Header.enclaveProof] = await a.enclaveKey.proof({
      path,
      token: options.token ?? '',
      now: a.clock.now(),
    })
  }
  const res = await b.app.request(path, { method: 'POST', headers, body: JSON.stringify(body) })
  return { status: res.status, body: await res.json() }
}

const onA = (path: string, body: object, options: NodeRequestOptions = {}) => {
  const headers: Record<string, string> = options.ip ? { 'x-forwarded-for': options.ip } : {}
  const request = { body, token: options.token, headers }
  return options.enclave ? a.enclaveRequest(path, request) : a.request(path, request)
}

const wrong = (code: string) => (code === '000000' ? '111111' : '000000')

it('REDIS_URL puts every limit in Redis', async () => {
  const t = await getTestInstance({ redisUrl: REDIS_URL })
  try {
    expect(t.server.services.limiter).toBeInstanceOf(RedisRateLimiter)
  } finally {
    await t.close()
  }
})

describe('one count across nodes', () => {
  it('the per-address attempt cap', async () => {
    const email = 'shared-attempts@example.com'
    expect((await onA(routes.emailInit, { email })).status).toBe(200)
    const code = await a.lastCode(email)
    // Each guess from its own IP: only the address's count is shared here.
    expect(
      (await onA(routes.emailAuthenticate, { email, code: wrong(code) }, { ip: '192.0.2.1' }))
        .status,
    ).toBe(422)
    expect(
      (await onB(routes.emailAuthenticate, { email, code: wrong(code) }, { ip: '192.0.2.2' }))
        .status,
    ).toBe(422)
    expect(
      (await onA(routes.emailAuthenticate, { email, code: wrong(code) }, { ip: '192.0.2.3' }))
        .status,
    ).toBe(422)
    expect(await onB(routes.emailAuthenticate, { email, code }, { ip: '192.0.2.4' })).toMatchObject(
      {
        status: 429,
        body: { code: 'TOO_MANY_ATTEMPTS' },
      },
    )
  })

  it('the per-IP code-verify cap', async () => {
    const ip = '198.51.100.1'
    const guess = (i: number) => ({ email: `spray${i}@example.com`, code: '000000' })
    expect((await onA(routes.emailAuthenticate, guess(0), { ip })).status).toBe(422)
    expect((await onB(routes.emailAuthenticate, guess(1), { ip })).status).toBe(422)
    expect((await onA(routes.emailAuthenticate, guess(2), { ip })).status).toBe(422)
    expect(await onB(routes.emailAuthenticate, guess(3), { ip })).toMatchObject({
      status: 429,
      body: { code: 'TOO_MANY_REQUESTS' },
    })
  })

  it('the per-IP send cap, and the resend cooldown under parallel sends to both nodes', async () => {
    const ip = '198.51.100.2'
    expect((await onA(routes.emailInit, { email: 'send1@example.com' }, { ip })).status).toBe(200)
    expect((await onB(routes.emailInit, { email: 'send2@example.com' }, { ip })).status).toBe(200)
    expect(await onA(routes.emailInit, { email: 'send3@example.com' }, { ip })).toMatchObject({
      status: 429,
      body: { code: 'TOO_MANY_REQUESTS' },
    })
    const email = 'both-nodes@example.com'
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        (i % 2 ? onA : onB)(routes.emailInit, { email }, { ip: `203.0.113.${i + 1}` }),
      ),
    )
    expect(results.filter((r) => r.status === 200)).toHaveLength(1)
    expect(results.filter((r) => r.body.code === 'RESEND_COOLDOWN')).toHaveLength(19)
  })

  it('the per-IP key-route cap', async () => {
    const token = (await a.login('shared-keys@example.com', { enclaveKey: a.enclaveKey })).token
    const wallet = hdBody()
    const key = { ip: '198.51.100.3', token: token ?? '', enclave: true }
    expect((await onA(routes.embeddedWalletsCreate, wallet, key)).status).toBe(200)
    const ask = { entropy_id: wallet.entropy_id }
    expect((await onB(routes.embeddedWalletsAuthShare, ask, key)).status).toBe(200)
    expect((await onA(routes.embeddedWalletsRecovery, ask, key)).status).toBe(200)
    expect(await onB(routes.embeddedWalletsAuthShare, ask, key)).toMatchObject({
      status: 429,
      body: { code: 'TOO_MANY_REQUESTS' },
    })
  })
})
