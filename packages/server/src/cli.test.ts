import { afterAll, beforeAll, expect, it } from 'vitest'
import { getAppById } from './apps/service.ts'
import { runCli } from './cli.ts'
import { sha256 } from './ids.ts'
import { getTestInstance, type TestInstance } from './test/instance.ts'

let t: TestInstance
beforeAll(async () => {
  t = await getTestInstance()
})
afterAll(() => t.close())

const run = async (argv: string[]) => {
  const out: string[] = []
  const err: string[] = []
  const code = await runCli(argv, {
    db: t.db,
    env: { LATCHKEY_MASTER_KEY: Buffer.alloc(32, 1).toString('hex') },
    out: (l) => out.push(l),
    err: (l) => err.push(l),
  })
  return { code, out: out.join('\n'), err: err.join('\n') }
}

it('apps create prints a 25-character id and a secret shown once, stored hashed', async () => {
  const res = await run([
    'apps',
    'create',
    '--name',
    'Demo',
    '--origin',
    'http://a.test',
    '--origin',
    'http://b.test/',
    '--accent-color',
    '#112233',
  ])
  expect(res.code).toBe(0)
  const id = res.out.match(/App id:\s+([a-z0-9]+)/)?.[1] ?? ''
  const secret = res.out.match(/App secret:\s+(\S+)/)?.[1] ?? ''
  expect(id).toMatch(/^[a-z0-9]{25}$/)
  expect(secret.length).toBeGreaterThanOrEqual(43)
  const app = await getAppById(t.db, id)
  expect(app).toMatchObject({
    name: 'Demo',
    allowedOrigins: ['http://a.test', 'http://b.test'],
    settings: { accent_color: '#112233' },
  })
  const row = await t.db
    .selectFrom('apps')
    .select('secret_hash')
    .where('id', '=', id)
    .executeTakeFirstOrThrow()
  expect(row.secret_hash).toBe(sha256(secret))
  expect(row.secret_hash).not.toContain(secret)
})

it('apps create ids are random', async () => {
  const a = await run(['apps', 'create', '--name', 'A', '--origin', 'http://a.test', '--json'])
  const b = await run(['apps', 'create', '--name', 'B', '--origin', 'http://a.test', '--json'])
  expect(JSON.parse(a.out).id).not.toBe(JSON.parse(b.out).id)
})

it('apps create refuses bad input', async () => {
  expect((await run(['apps', 'create', '--name', 'X'])).code).toBe(1)
  expect(
    (await run(['apps', 'create', '--name', 'X', '--origin', 'http://a.test/path'])).code,
  ).toBe(1)
  expect(
    (await run(['apps', 'create', '--name', 'X', '--origin', 'javascript:alert(1)'])).code,
  ).toBe(1)
})

it('apps ensure is an idempotent upsert that keeps the id and secret', async () => {
  const id = 'demoappdemoappdemoapp0001'
  const first = await run([
    'apps',
    'ensure',
    '--id',
    id,
    '--name',
    'Demo',
    '--origin',
    'http://localhost:5173',
  ])
  expect(first.out).toContain(`Created app ${id}`)
  const hash = (
    await t.db
      .selectFrom('apps')
      .select('secret_hash')
      .where('id', '=', id)
      .executeTakeFirstOrThrow()
  ).secret_hash
  const second = await run([
    'apps',
    'ensure',
    '--id',
    id,
    '--name',
    'Demo 2',
    '--origin',
    'http://localhost:5174',
  ])
  expect(second.out).toContain(`Updated app ${id}`)
  expect(second.out).not.toContain('secret')
  const app = await getAppById(t.db, id)
  expect(app).toMatchObject({ name: 'Demo 2', allowedOrigins: ['http://localhost:5174'] })
  expect(
    (
      await t.db
        .selectFrom('apps')
        .select('secret_hash')
        .where('id', '=', id)
        .executeTakeFirstOrThrow()
    ).secret_hash,
  ).toBe(hash)
  expect(
    (await run(['apps', 'ensure', '--id', 'short', '--name', 'x', '--origin', 'http://a.test']))
      .code,
  ).toBe(1)
})

it('apps list shows the apps', async () => {
  const res = await run(['apps', 'list'])
  expect(res.out).toContain(t.app.id)
})

it('migrate reports an up-to-date database', async () => {
  expect((await run(['migrate'])).out).toBe('Database is up to date')
})

it('unknown commands fail with usage', async () => {
  const res = await run(['frobnicate'])
  expect(res.code).toBe(1)
  expect(res.err).toContain('Usage')
})
