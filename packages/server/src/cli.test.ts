import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { getAppProviderCredentials } from './apps/credentials.ts'
import { getAppById } from './apps/service.ts'
import { runCli } from './cli.ts'
import { SecretBox } from './crypto/secrets.ts'
import { sha256 } from './ids.ts'
import { getTestInstance, type TestInstance } from './test/instance.ts'

let t: TestInstance
beforeAll(async () => {
  t = await getTestInstance()
})
afterAll(() => t.close())

const MASTER_KEY = Buffer.alloc(32, 1)
const run = async (argv: string[], env: Record<string, string> = {}) => {
  const out: string[] = []
  const err: string[] = []
  const code = await runCli(argv, {
    db: t.db,
    env: { LATCHKEY_MASTER_KEY: MASTER_KEY.toString('hex'), ...env },
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

it('apps ensure --login-method switches exactly the listed methods on', async () => {
  const id = 'demoappdemoappdemoapp0002'
  const base = ['apps', 'ensure', '--id', id, '--name', 'Demo', '--origin', 'http://a.test']
  expect((await run([...base, '--login-method', 'email', '--login-method', 'sms'])).code).toBe(0)
  const app = await getAppById(t.db, id)
  expect(app?.settings.login_methods).toMatchObject({ email: true, sms: true, google: false })
  expect((await run([...base, '--login-method', 'carrier-pigeon'])).code).toBe(1)
})

it('apps settings prints the settings and merges --set JSON (null removes a key), validated', async () => {
  const id = 'demoappdemoappdemoapp0003'
  await run(['apps', 'ensure', '--id', id, '--name', 'Demo', '--origin', 'http://a.test'])
  const set = await run([
    'apps',
    'settings',
    id,
    '--set',
    '{"require_users_accept_terms":true,"terms_and_conditions_url":"https://a.test/terms"}',
  ])
  expect(set.code).toBe(0)
  expect((await getAppById(t.db, id))?.settings).toMatchObject({
    require_users_accept_terms: true,
    terms_and_conditions_url: 'https://a.test/terms',
  })
  expect(
    (await run(['apps', 'settings', id, '--set', '{"terms_and_conditions_url":null}'])).code,
  ).toBe(0)
  const shown = await run(['apps', 'settings', id])
  expect(JSON.parse(shown.out)).toMatchObject({ require_users_accept_terms: true })
  expect(JSON.parse(shown.out)).not.toHaveProperty('terms_and_conditions_url')
  // Invalid JSON, a non-object, an invalid setting and an unknown app are errors.
  expect((await run(['apps', 'settings', id, '--set', '{oops'])).code).toBe(1)
  expect((await run(['apps', 'settings', id, '--set', '[1]'])).code).toBe(1)
  const bad = await run(['apps', 'settings', id, '--set', '{"accent_color":"red"}'])
  expect(bad.code).toBe(1)
  const unknown = await run(['apps', 'settings', id, '--set', '{"colour":"#000000"}'])
  expect(unknown.err).toContain('Unknown app setting: colour')
  expect((await run(['apps', 'settings', 'nosuchappnosuchappnosuch0'])).code).toBe(1)
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

describe('apps credentials', () => {
  const store = () => ({ db: t.db, secrets: new SecretBox(MASTER_KEY) })
  const GOOGLE_SECRET = 'GOCSPX-cli-secret-value'

  it('set google-drive reads the client secret from the named env var, seals it, and never prints it', async () => {
    const res = await run(
      [
        'apps',
        'credentials',
        'set',
        t.app.id,
        'google-drive',
        '--client-id',
        'cli.apps.googleusercontent.com',
        '--client-secret-env',
        'GOOGLE_SECRET',
      ],
      { GOOGLE_SECRET },
    )
    expect(res).toMatchObject({ code: 0, err: '' })
    expect(res.out).toContain(`Set the google-drive credentials of app ${t.app.id}`)
    expect(res.out).not.toContain(GOOGLE_SECRET)
    expect(await getAppProviderCredentials(store(), t.app.id, 'google-drive')).toEqual({
      provider: 'google-drive',
      client_id: 'cli.apps.googleusercontent.com',
      client_secret: GOOGLE_SECRET,
    })
    const rows = await t.db.selectFrom('app_provider_credentials').selectAll().execute()
    expect(JSON.stringify(rows)).not.toContain(GOOGLE_SECRET)
  })

  it('a secret on the command line is refused; an unset variable is an error', async () => {
    const onArgv = await run([
      'apps',
      'credentials',
      'set',
      t.app.id,
      'google-drive',
      '--client-id',
      'x',
      '--client-secret',
      'on-argv',
    ])
    expect(onArgv.code).toBe(1)
    expect(onArgv.err).toContain("Unknown option '--client-secret'")
    const unset = await run([
      'apps',
      'credentials',
      'set',
      t.app.id,
      'google-drive',
      '--client-id',
      'x',
      '--client-secret-env',
      'NOT_SET',
    ])
    expect(unset).toMatchObject({ code: 1 })
    expect(unset.err).toContain('NOT_SET is empty or not set')
    expect((await run(['apps', 'credentials', 'set', t.app.id, 'google-drive'])).code).toBe(1)
  })

  it('set icloud takes the container, environment and API token (from env or flag)', async () => {
    const fromEnv = await run(
      [
        'apps',
        'credentials',
        'set',
        t.app.id,
        'icloud',
        '--container-id',
        'iCloud.com.example.cli',
        '--environment',
        'production',
        '--api-token-env',
        'CK_TOKEN',
      ],
      { CK_TOKEN: 'ck-env-token' },
    )
    expect(fromEnv.code).toBe(0)
    expect(await getAppProviderCredentials(store(), t.app.id, 'icloud')).toEqual({
      provider: 'icloud',
      container_id: 'iCloud.com.example.cli',
      environment: 'production',
      api_token: 'ck-env-token',
    })
    const fromFlag = await run([
      'apps',
      'credentials',
      'set',
      t.app.id,
      'icloud',
      '--container-id',
      'iCloud.com.example.cli',
      '--environment',
      'development',
      '--api-token',
      'ck-flag-token',
    ])
    expect(fromFlag.code).toBe(0)
    expect(await getAppProviderCredentials(store(), t.app.id, 'icloud')).toMatchObject({
      environment: 'development',
      api_token: 'ck-flag-token',
    })
    const bad = await run([
      'apps',
      'credentials',
      'set',
      t.app.id,
      'icloud',
      '--container-id',
      'iCloud.com.example.cli',
      '--environment',
      'staging',
      '--api-token',
      't',
    ])
    expect(bad.code).toBe(1)
  })

  it('delete removes them; unknown apps and providers fail', async () => {
    const res = await run(['apps', 'credentials', 'delete', t.app.id, 'icloud'])
    expect(res).toMatchObject({ code: 0, out: `Deleted the icloud credentials of app ${t.app.id}` })
    expect(await getAppProviderCredentials(store(), t.app.id, 'icloud')).toBeUndefined()
    expect((await run(['apps', 'credentials', 'delete', t.app.id, 'icloud'])).out).toContain(
      'had no icloud credentials',
    )
    expect((await run(['apps', 'credentials', 'delete', t.app.id, 'dropbox'])).code).toBe(1)
    expect((await run(['apps', 'credentials', 'delete'])).code).toBe(1)
    expect((await run(['apps', 'credentials', 'rotate', t.app.id, 'icloud'])).code).toBe(1)
    const unknown = await run(
      [
        'apps',
        'credentials',
        'set',
        'zzzzzzzzzzzzzzzzzzzzzzzzz',
        'google-drive',
        '--client-id',
        'x',
        '--client-secret-env',
        'S',
      ],
      { S: 'secret-of-unknown' },
    )
    expect(unknown.code).toBe(1)
    expect(unknown.err).toContain('No app with id')
    expect(unknown.err).not.toContain('secret-of-unknown')
  })
})
