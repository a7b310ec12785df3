import { copyFileSync, existsSync, mkdirSync, mkdtempSync, rmSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Header, routes } from '@latchkey/protocol'
import { afterEach, beforeEach, expect, it } from 'vitest'
import type { EmailMessage, EmailSender } from './adapters/email/types.ts'
import { createApp } from './apps/service.ts'
import { runCli } from './cli.ts'
import { silentLogger } from './config.ts'
import { type RunningServer, startServer } from './start.ts'

// Both servers run on SQLite files in their own folders whatever DATABASE_URL says: the backup
// command copies SQLite only, so this file passes unchanged in the PostgreSQL run too.
const MASTER_KEY = Buffer.alloc(32, 7)

let root: string
beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'latchkey-backup-'))
})
afterEach(() => rmSync(root, { recursive: true, force: true }))

async function run(argv: string[], env: NodeJS.ProcessEnv = {}) {
  const out: string[] = []
  const err: string[] = []
  const code = await runCli(argv, {
    cwd: root,
    env,
    out: (l) => out.push(l),
    err: (l) => err.push(l),
  })
  return { code, out: out.join('\n'), err: err.join('\n') }
}

const inbox: EmailMessage[] = []
const capture: EmailSender = {
  kind: 'capture',
  send: async (message) => {
    inbox.push(message)
  },
}

const serve = (dataDir: string) =>
  startServer({
    port: 0,
    dataDir,
    masterKey: MASTER_KEY,
    // The same public URL (the token issuer) before and after the restore, whatever the port.
    publicUrl: 'http://latchkey.test',
    emailSender: capture,
    logger: silentLogger,
    purgeIntervalMs: 0,
  })

async function api(
  running: RunningServer,
  path: string,
  init: { body?: unknown; token?: string; appId: string },
) {
  const headers: Record<string, string> = { [Header.appId]: init.appId }
  if (init.token) headers.authorization = `Bearer ${init.token}`
  if (init.body !== undefined) headers['content-type'] = 'application/json'
  const res = await fetch(`${running.url}${path}`, {
    method: init.body === undefined ? 'GET' : 'POST',
    headers,
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
  })
  // biome-ignore lint/suspicious/noExplicitAny: the test reads response bodies loosely
  return { status: res.status, body: (await res.json()) as any }
}

it('backs up the SQLite database while the server serves; a server on the copy reads the same data', async () => {
  const live = join(root, 'live')
  const backup = join(root, 'backups', 'latchkey.sqlite')
  const first = await serve(live)
  let token: string
  let userId: string
  let appId: string
  try {
    const { app } = await createApp(first.server.db, {
      name: 'Backed up',
      origins: ['http://a.test'],
    })
    appId = app.id
    const email = 'backup@example.com'
    expect((await api(first, routes.emailInit, { appId, body: { email } })).status).toBe(200)
    const code = /\b(\d{6})\b/.exec(inbox.at(-1)?.text ?? '')?.[1]
    const auth = await api(first, routes.emailAuthenticate, { appId, body: { email, code } })
    expect(auth.status).toBe(200)
    token = auth.body.token
    userId = auth.body.user.id

    mkdirSync(join(root, 'backups'))
    const result = await run(['backup', 'backups/latchkey.sqlite', '--data', live])
    expect(result).toMatchObject({ code: 0 })
    expect(result.out).toContain(`to ${backup}`)
    expect(statSync(backup).mode & 0o777).toBe(0o600)
    // Written after the backup: not in it.
    await createApp(first.server.db, { name: 'After the backup', origins: ['http://b.test'] })
  } finally {
    await first.close()
  }

  // Restore: the backup becomes latchkey.sqlite of a new data folder; same master key.
  const restored = join(root, 'restored')
  mkdirSync(restored)
  copyFileSync(backup, join(restored, 'latchkey.sqlite'))
  const second = await serve(restored)
  try {
    const config = await api(second, routes.appConfig(appId), { appId })
    expect(config.status).toBe(200)
    expect(config.body.name).toBe('Backed up')
    const me = await api(second, routes.usersMe, { appId, token })
    expect(me.status).toBe(200)
    expect(me.body.user.id).toBe(userId)
    expect(me.body.user.linked_accounts).toContainEqual(
      expect.objectContaining({ type: 'email', address: 'backup@example.com' }),
    )
    const list = await run(['apps', 'list', '--json', '--data', restored], {
      LATCHKEY_MASTER_KEY: MASTER_KEY.toString('hex'),
    })
    expect(JSON.parse(list.out).map((a: { name: string }) => a.name)).toEqual(['Backed up'])
  } finally {
    await second.close()
  }
})

it('refuses PostgreSQL and points to pg_dump, without connecting', async () => {
  const result = await run(['backup', 'out.sqlite'], {
    DATABASE_URL: 'postgres://nobody@127.0.0.1:1/none',
  })
  expect(result.code).toBe(1)
  expect(result.err).toContain('pg_dump')
  expect(existsSync(join(root, 'out.sqlite'))).toBe(false)
})

it('refuses when there is no database or FILE is the database; backs up a stopped one', async () => {
  const none = await run(['backup', 'out.sqlite', '--data', join(root, 'empty')])
  expect(none.code).toBe(1)
  expect(none.err).toContain('No Latchkey database')
  const data = join(root, 'data')
  const running = await serve(data)
  await running.close()
  const self = await run(['backup', 'data/latchkey.sqlite', '--data', data])
  expect(self.code).toBe(1)
  expect(self.err).toContain('is the database itself')
  // With no server running (no -wal / -shm beside the file) the read-only copy works too.
  expect((await run(['backup', 'stopped.sqlite', '--data', data])).code).toBe(0)
  expect(statSync(join(root, 'stopped.sqlite')).size).toBeGreaterThan(0)
})
