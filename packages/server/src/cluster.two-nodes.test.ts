import { type ChildProcess, fork } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { Socket } from 'node:net'
import { join } from 'node:path'
import { Header, routes, TOTP_PERIOD_S } from '@latchkey/protocol'
import { decodeProtectedHeader } from 'jose'
import { generate } from 'otplib'
import pg from 'pg'
import { createClient } from 'redis'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { createSiweMessage } from 'viem/siwe'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type {
  ClusterNodeMessage,
  ClusterNodeOptions,
  ClusterNodeReply,
} from './test/cluster-node.ts'
import { createTestEnclaveKey, type TestEnclaveKey } from './test/enclave-key.ts'

// Tracker issue 20, item 1: two nodes of one deployment — two server
// PROCESSES on one PostgreSQL schema and one Redis, with the same master key
// and public URL — and consecutive steps of each flow sent to alternating
// nodes. What a flow keeps between steps must live in the database or Redis,
// never in a process. The nodes' clocks are the test's (moved over IPC).
// PostgreSQL and Redis are on every dev machine and in CI (docs/testing.md);
// this file makes its own schema even when DATABASE_URL is unset.
const PG_URL = process.env.CLUSTER_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test'
const REDIS_URL = 'redis://127.0.0.1:6379'
const ORIGIN = 'http://app.test'
const PUBLIC_URL = 'http://latchkey.test'
const SEND_LIMIT = 4
const NODE = join(import.meta.dirname, 'test/cluster-node.ts')
const ROOT = join(import.meta.dirname, '../../..')

const schema = `cluster_${randomBytes(6).toString('hex')}`
const redisPrefix = `latchkey-test:cluster:${randomBytes(6).toString('hex')}:`
const appId = `cluster${randomBytes(9).toString('hex')}`

interface Node {
  name: string
  url: string
  child: ChildProcess
  ask(message: ClusterNodeMessage): Promise<ClusterNodeReply>
}

const reachable = (port: number) =>
  new Promise<boolean>((resolve) => {
    const socket = new Socket()
    socket.setTimeout(1_000)
    const done = (up: boolean) => {
      socket.destroy()
      resolve(up)
    }
    socket.once('connect', () => done(true)).once('error', () => done(false))
    socket.once('timeout', () => done(false))
    socket.connect(port, '127.0.0.1')
  })
const services = { postgres: await reachable(5432), redis: await reachable(6379) }
const missing = Object.entries(services)
  .filter(([, up]) => !up)
  .map(([name]) => name)
if (missing.length)
  console.warn(
    `!! cluster.two-nodes.test.ts SKIPPED: ${missing.join(' and ')} not reachable on 127.0.0.1`,
  )

async function admin<T>(run: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: PG_URL })
  await client.connect()
  try {
    return await run(client)
  } finally {
    await client.end()
  }
}

function startNode(name: string, options: ClusterNodeOptions): Promise<Node> {
  const child = fork(NODE, [JSON.stringify(options)], {
    cwd: ROOT,
    execArgv: ['--conditions=latchkey-source', '--import', 'tsx'],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  })
  const ask = (message: ClusterNodeMessage) =>
    new Promise<ClusterNodeReply>((resolve) => {
      child.once('message', (reply) => resolve(reply as ClusterNodeReply))
      child.send(message)
    })
  return new Promise((resolve, reject) => {
    child.once('message', (reply: ClusterNodeReply) => {
      if (reply.type === 'ready') resolve({ name, url: reply.url, child, ask })
    })
    child.once('exit', (code) => reject(new Error(`node ${name} exited (${code}) before serving`)))
  })
}

async function stopNode(node: Node | undefined): Promise<void> {
  if (!node || node.child.exitCode !== null) return
  const exited = new Promise((resolve) => node.child.once('exit', resolve))
  node.child.send({ type: 'stop' } satisfies ClusterNodeMessage)
  const kill = setTimeout(() => node.child.kill('SIGKILL'), 5_000)
  await exited
  clearTimeout(kill)
}

let a: Node
let b: Node
/** The deployment's clock (both nodes move together), epoch ms. */
let now = Date.UTC(2030, 0, 1)
async function advance(ms: number) {
  now += ms
  await Promise.all([a.ask({ type: 'advance', ms }), b.ask({ type: 'advance', ms })])
}

interface Answer {
  status: number
  // biome-ignore lint/suspicious/noExplicitAny: tests read response bodies loosely
  body: any
}
async function call(
  node: Node,
  path: string,
  options: {
    body?: unknown
    token?: string
    app?: boolean
    origin?: string
    headers?: Record<string, string>
  } = {},
): Promise<Answer> {
  const headers: Record<string, string> = { origin: options.origin ?? ORIGIN, ...options.headers }
  if (options.app !== false) headers[Header.appId] = appId
  if (options.token) headers.authorization = `Bearer ${options.token}`
  if (options.body !== undefined) headers['content-type'] = 'application/json'
  const res = await fetch(new URL(path, node.url), {
    method: options.body === undefined ? 'GET' : 'POST',
    headers,
    body: options.body === undefined ? undefined : JSON.stringify(options.body),
  })
  const text = await res.text()
  return { status: res.status, body: text ? JSON.parse(text) : null }
}

/** The newest code the (database-backed) dev mailbox got for `email`, read on `node`. */
async function mailboxCode(node: Node, email: string): Promise<string> {
  const { body } = await call(node, `${routes.devMailbox}?to=${encodeURIComponent(email)}`, {
    app: false,
  })
  const code = body?.messages?.[0]?.code
  if (!code) throw new Error(`no code for ${email} on node ${node.name}`)
  return code
}

/** Email code: init on `first`, code read and authenticated on `second`. */
async function emailLogin(first: Node, second: Node, email: string, enclaveKey?: TestEnclaveKey) {
  expect((await call(first, routes.emailInit, { body: { email } })).status).toBe(200)
  const code = await mailboxCode(second, email)
  const auth = await call(second, routes.emailAuthenticate, {
    body: { email, code },
    headers: enclaveKey ? { [Header.enclaveKey]: enclaveKey.jkt } : {},
  })
  expect(auth.status).toBe(200)
  return auth.body as { token: string; refresh_token: string; user: { id: string } }
}

describe.skipIf(missing.length > 0)('two nodes on one PostgreSQL and one Redis', () => {
  beforeAll(async () => {
    await admin((client) => client.query(`CREATE SCHEMA ${schema}`))
    const databaseUrl = new URL(PG_URL)
    databaseUrl.searchParams.set('options', `-c search_path=${schema}`)
    const options: ClusterNodeOptions = {
      databaseUrl: databaseUrl.toString(),
      redisUrl: REDIS_URL,
      redisPrefix,
      masterKey: randomBytes(32).toString('hex'),
      publicUrl: PUBLIC_URL,
      appId,
      origin: ORIGIN,
      startAt: now,
      codeSendsPerAddress: SEND_LIMIT,
    }
    // Started together, as a deployment's replicas are: both migrate and look for a signing key at once.
    ;[a, b] = await Promise.all([startNode('A', options), startNode('B', options)])
  }, 60_000)

  afterAll(async () => {
    await Promise.all([stopNode(a), stopNode(b)])
    await admin((client) => client.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`))
    const redis = createClient({ url: REDIS_URL })
    await redis.connect()
    const keys = await redis.keys(`${redisPrefix}*`)
    if (keys.length) await redis.del(keys)
    await redis.quit()
  }, 30_000)

  it('publish one JWKS, sign with one key, and verify each other’s tokens', async () => {
    const [jwksA, jwksB] = await Promise.all([
      call(a, routes.jwks(appId)),
      call(b, routes.jwks(appId)),
    ])
    expect(jwksA.status).toBe(200)
    expect(jwksB.body).toEqual(jwksA.body)
    expect(jwksA.body.keys).toHaveLength(1)
    const fromA = await emailLogin(a, a, 'jwks-a@example.com')
    const fromB = await emailLogin(b, b, 'jwks-b@example.com')
    expect(decodeProtectedHeader(fromA.token).kid).toBe(jwksA.body.keys[0].kid)
    expect(decodeProtectedHeader(fromB.token).kid).toBe(jwksA.body.keys[0].kid)
    expect((await call(b, routes.usersMe, { token: fromA.token })).status).toBe(200)
    expect((await call(a, routes.usersMe, { token: fromB.token })).status).toBe(200)
  })

  it('email code: init on A, code and login on B; the code is single use on A', async () => {
    const email = 'email-code@example.com'
    expect((await call(a, routes.emailInit, { body: { email } })).status).toBe(200)
    // The resend cooldown is a database row: B refuses a resend A just made.
    expect((await call(b, routes.emailInit, { body: { email } })).body.code).toBe('RESEND_COOLDOWN')
    const code = await mailboxCode(b, email)
    const auth = await call(b, routes.emailAuthenticate, { body: { email, code } })
    expect(auth.status).toBe(200)
    expect(await call(a, routes.emailAuthenticate, { body: { email, code } })).toMatchObject({
      status: 422,
      body: { code: 'INVALID_CODE' },
    })
    expect((await call(a, routes.usersMe, { token: auth.body.token })).body.user.id).toBe(
      auth.body.user.id,
    )
  })

  it('SMS code: sent by B (its dev outbox is per process: read there), used on A, spent on B', async () => {
    const phoneNumber = '+14155550142'
    expect((await call(b, routes.smsInit, { body: { phoneNumber } })).status).toBe(200)
    expect((await call(a, routes.smsInit, { body: { phoneNumber } })).body.code).toBe(
      'RESEND_COOLDOWN',
    )
    const outbox = await call(b, `${routes.devOutbox}?to=${encodeURIComponent(phoneNumber)}`, {
      app: false,
    })
    const code = outbox.body.messages[0].code
    expect((await call(a, routes.smsAuthenticate, { body: { phoneNumber, code } })).status).toBe(
      200,
    )
    expect(await call(b, routes.smsAuthenticate, { body: { phoneNumber, code } })).toMatchObject({
      status: 422,
      body: { code: 'INVALID_CODE' },
    })
  })

  it('refresh tokens rotate on alternating nodes; reuse on the other node ends the family', async () => {
    const login = await emailLogin(a, b, 'refresh@example.com')
    const refresh = (node: Node, token: string) =>
      call(node, routes.sessionRefresh, { body: { refresh_token: token } })
    const r1 = await refresh(a, login.refresh_token)
    expect(r1.status).toBe(200)
    const r2 = await refresh(b, r1.body.refresh_token)
    expect(r2.status).toBe(200)
    const r3 = await refresh(a, r2.body.refresh_token)
    expect(r3.status).toBe(200)
    // r1's successor (r2) was used: r1 presented again, on B, revokes the family.
    expect((await refresh(b, r1.body.refresh_token)).body.code).toBe('INVALID_REFRESH_TOKEN')
    expect((await refresh(a, r3.body.refresh_token)).body.code).toBe('INVALID_REFRESH_TOKEN')
    expect((await call(a, routes.usersMe, { token: r3.body.token })).status).toBe(401)
    expect((await call(b, routes.usersMe, { token: r3.body.token })).status).toBe(401)
  })

  it('SIWE: nonce from A, signature verified on B; the replay on A is refused', async () => {
    const account = privateKeyToAccount(generatePrivateKey())
    const init = await call(a, routes.siweInit, { body: { address: account.address } })
    expect(init.status).toBe(200)
    const message = createSiweMessage({
      address: account.address,
      chainId: 1,
      domain: new URL(ORIGIN).host,
      nonce: init.body.nonce,
      uri: ORIGIN,
      version: '1',
      issuedAt: new Date(now),
    })
    const body = {
      message,
      signature: await account.signMessage({ message }),
      wallet_client_type: 'metamask',
      connector_type: 'injected',
    }
    const login = await call(b, routes.siweAuthenticate, { body })
    expect(login.status).toBe(200)
    const replay = await call(a, routes.siweAuthenticate, { body })
    expect(replay.body).toMatchObject({
      code: 'WALLET_LOGIN_FAILED',
      details: { reason: 'nonce_used' },
    })
  })

  it('the per-address code-send limit, reached half on each node, refuses on both (Redis)', async () => {
    const email = 'limit@example.com'
    for (let i = 0; i < SEND_LIMIT; i++) {
      // Past the resend cooldown (a database row) each time; the count is Redis's.
      await advance(31_000)
      expect((await call(i % 2 ? b : a, routes.emailInit, { body: { email } })).status).toBe(200)
    }
    await advance(31_000)
    expect((await call(a, routes.emailInit, { body: { email } })).status).toBe(429)
    await advance(31_000)
    expect((await call(b, routes.emailInit, { body: { email } })).status).toBe(429)
  })

  it('a key rotated on A signs on A, verifies on B, and is in both JWKS', async () => {
    const before = await emailLogin(b, b, 'before-rotation@example.com')
    const reply = await a.ask({ type: 'rotate' })
    if (reply.type !== 'rotated') throw new Error(`unexpected reply ${reply.type}`)
    const after = await emailLogin(a, a, 'after-rotation@example.com')
    expect(decodeProtectedHeader(after.token).kid).toBe(reply.kid)
    // B has never seen the new kid: an unknown kid makes it reload the keys (at most once a second).
    await advance(1_001)
    expect((await call(b, routes.usersMe, { token: after.token })).status).toBe(200)
    // The retired key stays published, so tokens it signed keep verifying on both.
    expect((await call(a, routes.usersMe, { token: before.token })).status).toBe(200)
    // B keeps its view of the keys table at most a minute (keys.ts RELOAD_MS); then it signs with the new key.
    await advance(60_001)
    const [jwksA, jwksB] = await Promise.all([
      call(a, routes.jwks(appId)),
      call(b, routes.jwks(appId)),
    ])
    expect(jwksB.body).toEqual(jwksA.body)
    expect(jwksA.body.keys.map((k: { kid: string }) => k.kid)).toContain(reply.kid)
    const onB = await emailLogin(b, a, 'after-rotation-b@example.com')
    expect(decodeProtectedHeader(onB.token).kid).toBe(reply.kid)
  })

  it('MFA: an authenticator app set up on A and confirmed on B; verified on A, the code spent on B', async () => {
    const key = await createTestEnclaveKey()
    const { token } = await emailLogin(a, b, 'mfa@example.com', key)
    // A key route, called as the enclave page calls it: its own origin and a proof by the session's key.
    const enclave = async (node: Node, path: string, body: object) =>
      call(node, path, {
        token,
        body,
        origin: PUBLIC_URL,
        headers: {
          [Header.enclaveProof]: await key.proof({
            method: 'POST',
            path,
            token,
            origin: PUBLIC_URL,
            now,
          }),
        },
      })
    const totp = () => generate({ secret, epoch: Math.floor(now / 1000) })
    const init = await enclave(a, routes.mfaTotpInit, {})
    expect(init.status).toBe(200)
    const secret: string = init.body.secret
    expect((await enclave(b, routes.mfaTotpEnroll, { code: await totp() })).status).toBe(200)
    await advance(TOTP_PERIOD_S * 1000)
    const code = await totp()
    expect((await enclave(a, routes.mfaVerify, { method: 'totp', code })).status).toBe(200)
    // The factor's last used step is a database column: B refuses the code A took.
    expect(await enclave(b, routes.mfaVerify, { method: 'totp', code })).toMatchObject({
      status: 422,
      body: { code: 'MFA_INVALID_CODE' },
    })
  })
})
