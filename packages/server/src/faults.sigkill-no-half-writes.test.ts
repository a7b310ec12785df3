import { randomBytes } from 'node:crypto'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Header, routes } from '@latchkey/protocol'
import SqliteDatabase from 'better-sqlite3'
import { afterAll, describe, expect, it } from 'vitest'
import {
  CLUSTER_PG_URL,
  CLUSTER_PUBLIC_URL,
  missingClusterServices,
  pgAdmin,
} from './test/cluster.ts'
import { createTestEnclaveKey } from './test/enclave-key.ts'
import type { FaultNodeOptions } from './test/fault-node.ts'
import { type FaultNode, faultNodeOptions, startFaultNode } from './test/faults.ts'
import { brokenInvariants, type Dialect, type RunSql, tableCounts } from './test/invariants.ts'
import { hdBody } from './test/wallets.ts'

// Tracker issue 20, item 4: a node killed with SIGKILL in the middle of
// wallet creations, refresh rotations, sign-ups and account linkings (a guest
// upgraded by linking an email) leaves no half-written state: the table
// invariants of test/invariants.ts hold on what the database kept (SQLite's
// WAL replayed as the next start would), and every write the node acknowledged
// before dying is there. The kill comes once KILL_WHEN_ANSWERED requests were
// answered, with about CONCURRENCY more in flight — not after a delay.
const missing = await missingClusterServices('faults.sigkill-no-half-writes.test.ts')
const USERS = 10
const CONCURRENCY = 16
/** The kill comes when this many storm requests have been answered (about CONCURRENCY more are in flight). */
const KILL_WHEN_ANSWERED = 15

type Kind = 'wallet' | 'rotation' | 'link' | 'signUp' | 'guest'
/** One storm step; resolves to the writes the server acknowledged (200s). */
type Task = { kind: Kind; run: () => Promise<number> }

const ok = (answer: Promise<{ status: number }>) => answer.then((a) => (a.status === 200 ? 1 : 0))

/** Users and prepared requests: every storm task is one request (a rotation: three), its inputs made beforehand. */
async function prepareStorm(node: FaultNode): Promise<Task[]> {
  const many = <T>(make: (i: number) => Promise<T>) =>
    Promise.all(Array.from({ length: USERS }, (_, i) => make(i)))
  const owners = await many(async (i) => {
    const key = await createTestEnclaveKey()
    const login = await node.emailLogin(`owner-${i}@example.com`, key)
    if (login.status !== 200) throw new Error(`login: ${login.status}`)
    return { key, token: login.body.token as string, refresh: login.body.refresh_token as string }
  })
  const guests = await many(async (i) => {
    const guest = await node.call(routes.guestAuthenticate, {
      body: { guest_credential: randomBytes(32).toString('base64url') },
    })
    const email = `linked-${i}@example.com`
    await node.call(routes.emailInit, { body: { email } })
    return { token: guest.body.token as string, email, code: await node.mailboxCode(email) }
  })
  const signUps = await many(async (i) => {
    const email = `new-${i}@example.com`
    await node.call(routes.emailInit, { body: { email } })
    return { email, code: await node.mailboxCode(email) }
  })

  const createWallet = async (owner: (typeof owners)[number]) => {
    const proof = await owner.key.proof({
      path: routes.embeddedWalletsCreate,
      token: owner.token,
      origin: CLUSTER_PUBLIC_URL,
    })
    return node.call(routes.embeddedWalletsCreate, {
      token: owner.token,
      body: hdBody({ solana: true }),
      origin: CLUSTER_PUBLIC_URL,
      headers: { [Header.enclaveProof]: proof },
    })
  }
  // Three rotations in a row per family: each uses the token the last one returned.
  const rotate = async (owner: (typeof owners)[number]) => {
    let rotated = 0
    for (let i = 0; i < 3; i++) {
      const next = await node.call(routes.sessionRefresh, {
        body: { refresh_token: owner.refresh },
      })
      if (next.status !== 200) break
      owner.refresh = next.body.refresh_token
      rotated++
    }
    return rotated
  }
  const tasks: Task[] = []
  for (let i = 0; i < USERS; i++) {
    const owner = owners[i]
    const guest = guests[i]
    const signUp = signUps[i]
    if (!owner || !guest || !signUp) continue
    const link = { email: guest.email, code: guest.code }
    const credential = randomBytes(32).toString('base64url')
    tasks.push(
      { kind: 'wallet', run: () => ok(createWallet(owner)) },
      { kind: 'rotation', run: () => rotate(owner) },
      {
        kind: 'link',
        run: () => ok(node.call(routes.emailLink, { token: guest.token, body: link })),
      },
      { kind: 'signUp', run: () => ok(node.call(routes.emailAuthenticate, { body: signUp })) },
      {
        kind: 'guest',
        run: () =>
          ok(node.call(routes.guestAuthenticate, { body: { guest_credential: credential } })),
      },
    )
  }
  return tasks
}

interface Storm {
  /** Requests sent and answered when the kill came. */
  sent: number
  answered: number
  /** Writes acknowledged (200) per kind. */
  acknowledged: Record<Kind, number>
}

/** Runs `tasks` CONCURRENCY at a time and SIGKILLs the node once KILL_WHEN_ANSWERED were answered. */
async function stormAndKill(node: FaultNode, tasks: Task[]): Promise<Storm> {
  const storm: Storm = {
    sent: 0,
    answered: 0,
    acknowledged: { wallet: 0, rotation: 0, link: 0, signUp: 0, guest: 0 },
  }
  let killed: Promise<void> | undefined
  const lane = async () => {
    while (storm.sent < tasks.length && !killed) {
      const task = tasks[storm.sent++]
      if (!task) break
      // Requests cut off by the kill fail on the client side: that is the point.
      const writes = await task.run().catch(() => 0)
      if (killed) continue
      storm.acknowledged[task.kind] += writes
      if (++storm.answered >= KILL_WHEN_ANSWERED) killed = node.kill()
    }
  }
  await Promise.all(Array.from({ length: CONCURRENCY }, lane))
  await (killed ?? node.kill())
  return storm
}

interface Store {
  dialect: Dialect
  options: Partial<FaultNodeOptions>
  /** Runs `check` against what the database kept. */
  inspect<T>(check: (run: RunSql) => Promise<T>): Promise<T>
  drop(): Promise<void>
}

function postgresStore(): Store {
  const schema = `faults_kill_${randomBytes(6).toString('hex')}`
  const url = new URL(CLUSTER_PG_URL)
  url.searchParams.set('options', `-c search_path=${schema}`)
  let created = false
  return {
    dialect: 'postgres',
    options: { databaseUrl: url.toString() },
    async inspect(check) {
      if (!created) {
        await pgAdmin((client) => client.query(`CREATE SCHEMA ${schema}`))
        created = true
      }
      return pgAdmin(async (client) => {
        await client.query(`SET search_path TO ${schema}`)
        return check(async (sql) => (await client.query(sql)).rows)
      })
    },
    async drop() {
      await pgAdmin((client) => client.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`))
    },
  }
}

function sqliteStore(): Store {
  const dataDir = mkdtempSync(join(tmpdir(), 'latchkey-faults-kill-'))
  return {
    dialect: 'sqlite',
    options: { dataDir },
    async inspect(check) {
      // Opening the file after the kill replays its WAL, as the next start would.
      const db = new SqliteDatabase(join(dataDir, 'latchkey.sqlite'))
      try {
        return await check(async (sql) => {
          const statement = db.prepare(sql)
          if (!statement.reader) statement.run()
          return statement.reader ? (statement.all() as Array<Record<string, unknown>>) : []
        })
      } finally {
        db.close()
      }
    },
    drop: async () => rmSync(dataDir, { recursive: true, force: true }),
  }
}

const stores: Array<[string, () => Store]> = [
  ['PostgreSQL', postgresStore],
  ['SQLite', sqliteStore],
]

describe.skipIf(missing.length > 0).each(stores)('SIGKILL mid-operation on %s', (_, makeStore) => {
  const store = makeStore()
  const nodes: FaultNode[] = []
  afterAll(async () => {
    await Promise.all(nodes.map((node) => node.stop()))
    await store.drop()
  }, 20_000)

  it('leaves no half-written state', async () => {
    if (store.dialect === 'postgres') await store.inspect(async () => {})
    const many = { limit: 1_000_000, windowMs: 3_600_000 }
    const options = faultNodeOptions({
      ...store.options,
      rateLimits: { codeSendsPerIp: many, codeAttemptsPerIp: many },
    })
    const node = await startFaultNode(options)
    nodes.push(node)
    const tasks = await prepareStorm(node)
    const before = await store.inspect(tableCounts)
    const storm = await stormAndKill(node, tasks)
    expect(node.child.signalCode).toBe('SIGKILL')
    expect(storm.sent).toBeLessThan(tasks.length)

    const after = await store.inspect(async (run) => ({
      broken: await brokenInvariants(store.dialect, run),
      counts: await tableCounts(run),
      linked: Number(
        (await run(`SELECT count(*) AS n FROM linked_accounts WHERE identifier LIKE 'linked-%'`))[0]
          ?.n,
      ),
    }))
    expect(after.broken).toEqual({})
    // What the node acknowledged before it died was committed.
    const { acknowledged: ack } = storm
    const grew = (table: string) => (after.counts[table] ?? 0) - (before[table] ?? 0)
    expect(grew('wallet_secrets')).toBeGreaterThanOrEqual(ack.wallet)
    expect(grew('users')).toBeGreaterThanOrEqual(ack.signUp + ack.guest)
    expect(grew('refresh_tokens')).toBeGreaterThanOrEqual(ack.rotation + ack.signUp + ack.guest)
    expect(after.linked).toBeGreaterThanOrEqual(ack.link)
    expect(Object.values(ack).reduce((a, b) => a + b)).toBeGreaterThan(0)

    // The checks are not vacuous: a half-created user and a forked family are caught.
    const caught = await store.inspect(async (run) => {
      await run(`INSERT INTO users (id, app_id, created_at, has_accepted_terms, is_guest)
        VALUES ('half-created', '${options.appId}', 0, 0, 0)`)
      await run(`INSERT INTO refresh_tokens (token_hash, session_id, created_at)
        SELECT 'forked', id, 0 FROM sessions WHERE revoked_at IS NULL ORDER BY id LIMIT 1`)
      return brokenInvariants(store.dialect, run)
    })
    expect(caught).toEqual({
      'no user without a login method (half created)': 1,
      'every session family has exactly one live (unrotated) token': 1,
    })
  }, 60_000)
})
