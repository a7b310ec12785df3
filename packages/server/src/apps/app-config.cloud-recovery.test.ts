import { routes } from '@latchkey/protocol'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { runCli } from '../cli.ts'
import { getTestInstance, type TestInstance } from '../test/instance.ts'
import { APP_CACHE_TTL_MS } from './cache.ts'

// The public config lists Google Drive / iCloud recovery only when the app
// offers it AND has credentials for it (a client must never offer a backup
// the server cannot serve), and follows credential changes.
let t: TestInstance
beforeAll(async () => {
  t = await getTestInstance({
    appSettings: {
      embedded_wallet_config: {
        user_owned_recovery_options: ['user-passcode', 'google-drive', 'icloud'],
      },
    },
  })
})
afterAll(() => t.close())

const options = async (appId = t.app.id) =>
  (await t.request(routes.appConfig(appId), { appId: null })).body.embedded_wallet_config
    .user_owned_recovery_options
const google = { provider: 'google-drive', client_id: 'cid', client_secret: 'secret' } as const
const icloud = {
  provider: 'icloud',
  container_id: 'iCloud.com.example.app',
  environment: 'production',
  api_token: 'token',
} as const

it('offered without credentials: not listed', async () => {
  expect(await options()).toEqual(['user-passcode'])
})

it('credentials set through the server apply at once (the app cache forgets the app)', async () => {
  expect(await options()).toEqual(['user-passcode'])
  await t.server.setAppProviderCredentials(t.app.id, google)
  expect(await options()).toEqual(['user-passcode', 'google-drive'])
  await t.server.setAppProviderCredentials(t.app.id, icloud)
  expect(await options()).toEqual(['user-passcode', 'google-drive', 'icloud'])
  await t.server.deleteAppProviderCredentials(t.app.id, 'google-drive')
  expect(await options()).toEqual(['user-passcode', 'icloud'])
  await t.server.deleteAppProviderCredentials(t.app.id, 'icloud')
  expect(await options()).toEqual(['user-passcode'])
})

it('credentials without the offer: not listed', async () => {
  const app = await t.createApp({})
  await t.server.setAppProviderCredentials(app.id, google)
  await t.server.setAppProviderCredentials(app.id, icloud)
  expect(await options(app.id)).toEqual(['user-passcode'])
  const noPasscode = await t.createApp({
    embedded_wallet_config: { user_owned_recovery_options: ['icloud'] },
  })
  expect(await options(noPasscode.id)).toEqual([])
  await t.server.setAppProviderCredentials(noPasscode.id, icloud)
  expect(await options(noPasscode.id)).toEqual(['icloud'])
})

it('a change made elsewhere (the CLI, another node) applies within the cache TTL', async () => {
  expect(await options()).toEqual(['user-passcode'])
  const code = await runCli(
    [
      'apps',
      'credentials',
      'set',
      t.app.id,
      'google-drive',
      '--client-id',
      'cid',
      '--client-secret-env',
      'SECRET',
    ],
    {
      db: t.db,
      env: { SECRET: 'from-env', LATCHKEY_MASTER_KEY: Buffer.alloc(32, 7).toString('hex') },
      out: () => {},
      err: () => {},
    },
  )
  expect(code).toBe(0)
  expect(await options()).toEqual(['user-passcode'])
  t.clock.advance(APP_CACHE_TTL_MS)
  expect(await options()).toEqual(['user-passcode', 'google-drive'])
})
