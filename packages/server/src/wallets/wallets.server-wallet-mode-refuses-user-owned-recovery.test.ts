import { routes } from '@latchkey/protocol'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { getTestInstance, type TestInstance } from '../test/instance.ts'
import { hdBody, recovery } from '../test/wallets.ts'

// Spec 02 §5: "requesting user-owned recovery in server-wallet-only mode is
// unsupported". An app with embedded_wallet_config.mode
// 'user-controlled-server-wallets-only' allows automatic recovery only.

const SERVER_ONLY = { mode: 'user-controlled-server-wallets-only' as const }

let t: TestInstance
beforeAll(async () => {
  t = await getTestInstance()
})
afterAll(() => t.close())

let n = 0
async function serverOnlyApp() {
  const app = await t.createApp({
    embedded_wallet_config: {
      ...SERVER_ONLY,
      user_owned_recovery_options: ['user-passcode', 'google-drive'],
    },
  })
  await t.server.setAppProviderCredentials(app.id, {
    provider: 'google-drive',
    client_id: 'cid',
    client_secret: 'secret',
  })
  const { token } = await t.login(`server-only${++n}@example.com`, {
    appId: app.id,
    enclaveKey: t.enclaveKey,
  })
  const post = (path: string, body: unknown) =>
    t.enclaveRequest(path, { token: token ?? '', body, appId: app.id })
  return { app, post }
}

describe('server-wallet-only mode', () => {
  it('refuses a password or cloud backup on create with 400 USER_OWNED_RECOVERY_UNSUPPORTED', async () => {
    const { post } = await serverOnlyApp()
    const before = await t.countRows('wallet_secrets')
    for (const method of ['user-passcode', 'google-drive'] as const)
      expect(
        await post(routes.embeddedWalletsCreate, hdBody({ recovery: recovery(method) })),
      ).toMatchObject({ status: 400, body: { code: 'USER_OWNED_RECOVERY_UNSUPPORTED' } })
    expect(await t.countRows('wallet_secrets')).toBe(before)
    expect((await post(routes.embeddedWalletsCreate, hdBody())).status).toBe(200)
  })

  it('refuses moving an automatic wallet to a password or a cloud backup', async () => {
    const { post } = await serverOnlyApp()
    const body = hdBody()
    expect((await post(routes.embeddedWalletsCreate, body)).status).toBe(200)
    for (const method of ['user-passcode', 'google-drive'] as const)
      expect(
        await post(routes.embeddedWalletsSetRecovery, {
          entropy_id: body.entropy_id,
          recovery: recovery(method),
        }),
      ).toMatchObject({ status: 400, body: { code: 'USER_OWNED_RECOVERY_UNSUPPORTED' } })
  })

  it('tells the client: no user-owned options, none required', async () => {
    const { app } = await serverOnlyApp()
    const res = await t.request(routes.appConfig(app.id), { appId: null })
    expect(res.body.embedded_wallet_config).toMatchObject({
      ...SERVER_ONLY,
      user_owned_recovery_options: [],
      require_user_owned_recovery_on_create: false,
    })
  })

  it('is not the default: an app without a mode offers its recovery options', async () => {
    const res = await t.request(routes.appConfig(t.app.id))
    expect(res.body.embedded_wallet_config).toMatchObject({
      mode: 'legacy-embedded-wallets-only',
      user_owned_recovery_options: ['user-passcode'],
    })
  })

  it('the setting refuses an unknown mode, and requiring user-owned recovery with it', async () => {
    await expect(t.createApp({ embedded_wallet_config: { mode: 'tee' as never } })).rejects.toThrow(
      /embedded_wallet_config.mode must be one of/,
    )
    await expect(
      t.createApp({
        embedded_wallet_config: { ...SERVER_ONLY, require_user_owned_recovery_on_create: true },
      }),
    ).rejects.toThrow(/cannot require one on create/)
  })
})
