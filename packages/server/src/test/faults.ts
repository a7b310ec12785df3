/**
 * @module
 * Helpers of the fault tests (tracker issue 20, item 4): a server process
 * (test/fault-node.ts) whose log the test reads, calls to it, and bounded
 * waits on conditions (never on the clock alone).
 */
import { type ChildProcess, fork } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { join } from 'node:path'
import { Header, routes } from '@latchkey/protocol'
import { type Answer, type CallOptions, CLUSTER_ORIGIN, CLUSTER_PUBLIC_URL } from './cluster.ts'
import type { TestEnclaveKey } from './enclave-key.ts'
import type { FaultNodeMessage, FaultNodeOptions, FaultNodeReply } from './fault-node.ts'

const NODE = join(import.meta.dirname, 'fault-node.ts')
const ROOT = join(import.meta.dirname, '../../../..')

/** A response: status, parsed body, and headers (`Retry-After`). */
export interface FaultAnswer extends Answer {
  headers: Headers
}

export interface LogLine {
  level: string
  message: string
}

export interface FaultNode {
  url: string
  appId: string
  child: ChildProcess
  /** Every line the node logged so far. */
  logs: LogLine[]
  call(path: string, options?: CallOptions): Promise<FaultAnswer>
  /** The newest code the dev mailbox holds for `email`. */
  mailboxCode(email: string): Promise<string>
  /** Email code login (init, mailbox, authenticate); the session bound to `enclaveKey` when given. */
  emailLogin(email: string, enclaveKey?: TestEnclaveKey): Promise<FaultAnswer>
  /** SIGKILL: no drain, no cleanup; resolves once the process is gone. */
  kill(): Promise<void>
  /** Stops through IPC (SIGKILL after 5 s); a node already gone is fine. */
  stop(): Promise<void>
}

/** Options every node of one test shares: one master key, app and public URL. */
export function faultNodeOptions(extra: Partial<FaultNodeOptions> = {}): FaultNodeOptions {
  return {
    masterKey: randomBytes(32).toString('hex'),
    publicUrl: CLUSTER_PUBLIC_URL,
    appId: `faults${randomBytes(10).toString('hex').slice(0, 19)}`,
    origin: CLUSTER_ORIGIN,
    ...extra,
  }
}

/** Starts a node process; resolves once it serves. */
export function startFaultNode(options: FaultNodeOptions): Promise<FaultNode> {
  const child = fork(NODE, [JSON.stringify(options)], {
    cwd: ROOT,
    execArgv: ['--conditions=latchkey-source', '--import', 'tsx'],
    stdio: ['ignore', 'inherit', 'pipe', 'ipc'],
  })
  const logs: LogLine[] = []
  let rest = ''
  child.stderr?.setEncoding('utf8').on('data', (chunk: string) => {
    const lines = (rest + chunk).split('\n')
    rest = lines.pop() ?? ''
    for (const line of lines) {
      try {
        logs.push(JSON.parse(line) as LogLine)
      } catch {
        process.stderr.write(`${line}\n`)
      }
    }
  })
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()))
  const gone = () => child.exitCode !== null || child.signalCode !== null

  const call: FaultNode['call'] = async (path, o = {}) => {
    const headers: Record<string, string> = { origin: o.origin ?? options.origin, ...o.headers }
    if (o.app !== false) headers[Header.appId] = options.appId
    if (o.token) headers.authorization = `Bearer ${o.token}`
    if (o.body !== undefined) headers['content-type'] = 'application/json'
    const res = await fetch(new URL(path, url), {
      method: o.body === undefined ? 'GET' : 'POST',
      headers,
      body: o.body === undefined ? undefined : JSON.stringify(o.body),
    })
    const text = await res.text()
    let body: unknown = text
    try {
      body = text ? JSON.parse(text) : null
    } catch {}
    return { status: res.status, body, headers: res.headers }
  }
  const mailboxCode: FaultNode['mailboxCode'] = async (email) => {
    const { body } = await call(`${routes.devMailbox}?to=${encodeURIComponent(email)}`, {
      app: false,
    })
    const code = body?.messages?.[0]?.code
    if (!code) throw new Error(`no code for ${email}`)
    return code
  }
  const emailLogin: FaultNode['emailLogin'] = async (email, enclaveKey) => {
    const init = await call(routes.emailInit, { body: { email } })
    if (init.status !== 200) return init
    const code = await mailboxCode(email)
    return call(routes.emailAuthenticate, {
      body: { email, code },
      headers: enclaveKey ? { [Header.enclaveKey]: enclaveKey.jkt } : {},
    })
  }
  let url = ''
  return new Promise((resolve, reject) => {
    child.once('message', (reply: FaultNodeReply) => {
      url = reply.url
      resolve({
        url,
        appId: options.appId,
        child,
        logs,
        call,
        mailboxCode,
        emailLogin,
        async kill() {
          if (!gone()) child.kill('SIGKILL')
          await exited
        },
        async stop() {
          if (gone()) return
          child.send({ type: 'stop' } satisfies FaultNodeMessage)
          const kill = setTimeout(() => child.kill('SIGKILL'), 5_000)
          await exited
          clearTimeout(kill)
        },
      })
    })
    child.once('exit', (code) => reject(new Error(`fault node exited (${code}) before serving`)))
  })
}

/**
 * Calls `check` until it returns a value (not undefined), at most `timeoutMs`;
 * throws naming `what` past that. Each round waits `everyMs` first, so a
 * condition on another process (a reconnect) is polled, not spun on.
 */
export async function waitFor<T>(
  what: string,
  check: () => Promise<T | undefined> | T | undefined,
  { timeoutMs = 10_000, everyMs = 20 } = {},
): Promise<T> {
  const end = Date.now() + timeoutMs
  for (;;) {
    const value = await check()
    if (value !== undefined) return value
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`)
    await new Promise((resolve) => setTimeout(resolve, everyMs))
  }
}
