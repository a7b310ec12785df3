/**
 * @module
 * A deployment of server PROCESSES (test/cluster-node.ts) on one PostgreSQL
 * schema and one Redis prefix, with one master key and public URL, for the
 * tests of tracker issue 20 (two nodes, load, faults). `startDeployment()`
 * makes the schema, starts the nodes together (as replicas start: both
 * migrate at once) and gives helpers to call them; `stop()` stops the nodes
 * and removes the schema and the Redis keys.
 */
import { type ChildProcess, fork } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { Socket } from 'node:net'
import { join } from 'node:path'
import { Header, routes } from '@latchkey/protocol'
import pg from 'pg'
import { createClient } from 'redis'
import type { ClusterNodeMessage, ClusterNodeOptions, ClusterNodeReply } from './cluster-node.ts'
import type { TestEnclaveKey } from './enclave-key.ts'

export const CLUSTER_PG_URL =
  process.env.CLUSTER_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test'
export const CLUSTER_REDIS_URL = 'redis://127.0.0.1:6379'
export const CLUSTER_ORIGIN = 'http://app.test'
export const CLUSTER_PUBLIC_URL = 'http://latchkey.test'
const NODE = join(import.meta.dirname, 'cluster-node.ts')
const ROOT = join(import.meta.dirname, '../../../..')

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

/**
 * The services a deployment needs that are not reachable ([] when both are).
 * PostgreSQL and Redis are on every dev machine and in CI (docs/testing.md);
 * a test file skips itself, loudly, when one is missing.
 */
export async function missingClusterServices(file: string): Promise<string[]> {
  const services = { postgres: await reachable(5432), redis: await reachable(6379) }
  const missing = Object.entries(services)
    .filter(([, up]) => !up)
    .map(([name]) => name)
  if (missing.length)
    console.warn(`!! ${file} SKIPPED: ${missing.join(' and ')} not reachable on 127.0.0.1`)
  return missing
}

export async function pgAdmin<T>(run: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: CLUSTER_PG_URL })
  await client.connect()
  try {
    return await run(client)
  } finally {
    await client.end()
  }
}

export interface ClusterNode {
  name: string
  url: string
  child: ChildProcess
  ask(message: ClusterNodeMessage): Promise<ClusterNodeReply>
}

export interface Answer {
  status: number
  // biome-ignore lint/suspicious/noExplicitAny: tests read response bodies loosely
  body: any
}

export interface CallOptions {
  body?: unknown
  token?: string
  app?: boolean
  origin?: string
  headers?: Record<string, string>
}

/** Starts one node process; resolves once it serves. */
export function startClusterNode(name: string, options: ClusterNodeOptions): Promise<ClusterNode> {
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

/** Stops a node through IPC (SIGKILL after 5 s); a node already gone is fine. */
export async function stopClusterNode(node: ClusterNode | undefined): Promise<void> {
  if (!node || node.child.exitCode !== null || node.child.signalCode !== null) return
  const exited = new Promise((resolve) => node.child.once('exit', resolve))
  node.child.send({ type: 'stop' } satisfies ClusterNodeMessage)
  const kill = setTimeout(() => node.child.kill('SIGKILL'), 5_000)
  await exited
  clearTimeout(kill)
}

export interface Deployment {
  nodes: ClusterNode[]
  appId: string
  schema: string
  redisPrefix: string
  /** The options every node was started with (start another node with them). */
  options: ClusterNodeOptions
  /** The deployment's clock (real time plus every advance; every node reads the same), epoch ms. */
  now(): number
  advance(ms: number): Promise<void>
  call(node: ClusterNode, path: string, options?: CallOptions): Promise<Answer>
  /** The newest code the (database-backed) dev mailbox got for `email`, read on `node`. */
  mailboxCode(node: ClusterNode, email: string): Promise<string>
  /** Email code: init on `first`, code read and authenticated on `second`. */
  emailLogin(
    first: ClusterNode,
    second: ClusterNode,
    email: string,
    enclaveKey?: TestEnclaveKey,
  ): Promise<{ token: string; refresh_token: string; user: { id: string } }>
  /** A proof by the session's enclave key for POST `path`, at the deployment's time. */
  enclaveProof(path: string, session: EnclaveSession): Promise<string>
  /**
   * A key route, called as the enclave page calls it: from the public URL's
   * origin, with a fresh proof by the session's enclave key (or `proof`).
   */
  enclaveCall(
    node: ClusterNode,
    path: string,
    session: EnclaveSession,
    body: object,
    proof?: string,
  ): Promise<Answer>
  stop(): Promise<void>
}

/** A session bound to a test enclave key (emailLogin with the key). */
export interface EnclaveSession {
  token: string
  key: TestEnclaveKey
}

export interface DeploymentOptions {
  nodes?: number
  codeSendsPerAddress?: number
  /**
   * Epoch ms the deployment's clock starts at (default 2030-01-01). Flows
   * that check a peer's real-time stamps (an OpenID provider's id_token iat
   * and exp) start at Date.now().
   */
  startAt?: number
  /** Per-node additions to ClusterNodeOptions. */
  node?: Partial<ClusterNodeOptions>
  /** PostgreSQL `application_name` of the nodes' connections (pg_stat_activity tells them apart). */
  applicationName?: string
}

export async function startDeployment(options: DeploymentOptions = {}): Promise<Deployment> {
  const schema = `cluster_${randomBytes(6).toString('hex')}`
  const redisPrefix = `latchkey-test:cluster:${randomBytes(6).toString('hex')}:`
  const appId = `cluster${randomBytes(9).toString('hex')}`
  // The deployment's clock: real time from `startAt` on, moved forward by advance().
  // The nodes count from the same real instant (clockBase), so they agree with it and each other.
  const startAt = options.startAt ?? Date.UTC(2030, 0, 1)
  const clockBase = Date.now()
  let offset = startAt - clockBase
  await pgAdmin((client) => client.query(`CREATE SCHEMA ${schema}`))
  const databaseUrl = new URL(CLUSTER_PG_URL)
  databaseUrl.searchParams.set('options', `-c search_path=${schema}`)
  if (options.applicationName)
    databaseUrl.searchParams.set('application_name', options.applicationName)
  const nodeOptions: ClusterNodeOptions = {
    databaseUrl: databaseUrl.toString(),
    redisUrl: CLUSTER_REDIS_URL,
    redisPrefix,
    masterKey: randomBytes(32).toString('hex'),
    publicUrl: CLUSTER_PUBLIC_URL,
    appId,
    origin: CLUSTER_ORIGIN,
    startAt,
    clockBase,
    codeSendsPerAddress: options.codeSendsPerAddress ?? 4,
    ...options.node,
  }
  const names = Array.from({ length: options.nodes ?? 2 }, (_, i) => String.fromCharCode(65 + i))
  const started = await Promise.allSettled(names.map((name) => startClusterNode(name, nodeOptions)))
  const nodes = started.flatMap((s) => (s.status === 'fulfilled' ? [s.value] : []))

  const stop = async () => {
    await Promise.all(nodes.map(stopClusterNode))
    await pgAdmin((client) => client.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`))
    const redis = createClient({ url: CLUSTER_REDIS_URL })
    await redis.connect()
    const keys = await redis.keys(`${redisPrefix}*`)
    if (keys.length) await redis.del(keys)
    await redis.quit()
  }
  const failed = started.find((s) => s.status === 'rejected')
  if (failed) {
    await stop()
    throw failed.reason
  }

  const call: Deployment['call'] = async (node, path, o = {}) => {
    const headers: Record<string, string> = { origin: o.origin ?? CLUSTER_ORIGIN, ...o.headers }
    if (o.app !== false) headers[Header.appId] = appId
    if (o.token) headers.authorization = `Bearer ${o.token}`
    if (o.body !== undefined) headers['content-type'] = 'application/json'
    const res = await fetch(new URL(path, node.url), {
      method: o.body === undefined ? 'GET' : 'POST',
      headers,
      body: o.body === undefined ? undefined : JSON.stringify(o.body),
    })
    const text = await res.text()
    return { status: res.status, body: text ? JSON.parse(text) : null }
  }
  const mailboxCode: Deployment['mailboxCode'] = async (node, email) => {
    const { body } = await call(node, `${routes.devMailbox}?to=${encodeURIComponent(email)}`, {
      app: false,
    })
    const code = body?.messages?.[0]?.code
    if (!code) throw new Error(`no code for ${email} on node ${node.name}`)
    return code
  }
  const emailLogin: Deployment['emailLogin'] = async (first, second, email, enclaveKey) => {
    const init = await call(first, routes.emailInit, { body: { email } })
    if (init.status !== 200)
      throw new Error(`email init: ${init.status} ${JSON.stringify(init.body)}`)
    const code = await mailboxCode(second, email)
    const auth = await call(second, routes.emailAuthenticate, {
      body: { email, code },
      headers: enclaveKey ? { [Header.enclaveKey]: enclaveKey.jkt } : {},
    })
    if (auth.status !== 200)
      throw new Error(`email auth: ${auth.status} ${JSON.stringify(auth.body)}`)
    return auth.body
  }
  const enclaveProof: Deployment['enclaveProof'] = (path, { token, key }) =>
    key.proof({ method: 'POST', path, token, origin: CLUSTER_PUBLIC_URL, now: Date.now() + offset })
  const enclaveCall: Deployment['enclaveCall'] = async (node, path, session, body, proof) =>
    call(node, path, {
      token: session.token,
      body,
      origin: CLUSTER_PUBLIC_URL,
      headers: { [Header.enclaveProof]: proof ?? (await enclaveProof(path, session)) },
    })
  return {
    nodes,
    appId,
    schema,
    redisPrefix,
    options: nodeOptions,
    now: () => Date.now() + offset,
    async advance(ms) {
      offset += ms
      await Promise.all(nodes.map((node) => node.ask({ type: 'advance', ms })))
    },
    call,
    mailboxCode,
    emailLogin,
    enclaveProof,
    enclaveCall,
    stop,
  }
}
