import { mkdtempSync, rmSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { routes } from '@latchkey/protocol'
import { expect, it } from 'vitest'
import { createApp } from './apps/service.ts'
import { silentLogger } from './config.ts'
import { startServer } from './start.ts'

it('startServer serves over HTTP with a SQLite file and a generated dev master key (0600)', async () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'latchkey-'))
  const running = await startServer({ port: 0, dataDir, logger: silentLogger })
  try {
    expect(running.server.services.config.issuer).toBe(`http://localhost:${running.port}`)
    const { app } = await createApp(running.server.db, { name: 'HTTP', origins: ['http://a.test'] })
    const res = await fetch(`${running.url}${routes.appConfig(app.id)}`)
    expect(res.status).toBe(200)
    expect((await res.json()).id).toBe(app.id)
    expect(statSync(join(dataDir, 'master.key')).mode & 0o777).toBe(0o600)
    expect(statSync(join(dataDir, 'latchkey.sqlite')).isFile()).toBe(true)
  } finally {
    await running.close()
    rmSync(dataDir, { recursive: true, force: true })
  }
})

it('refuses to start in production without a master key or SMTP', async () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'latchkey-'))
  try {
    await expect(
      startServer({ port: 0, dataDir, production: true, logger: silentLogger }),
    ).rejects.toThrow(/LATCHKEY_MASTER_KEY/)
    await expect(
      startServer({
        port: 0,
        dataDir,
        production: true,
        masterKey: Buffer.alloc(32, 3),
        logger: silentLogger,
      }),
    ).rejects.toThrow(/SMTP_URL/)
  } finally {
    rmSync(dataDir, { recursive: true, force: true })
  }
})
