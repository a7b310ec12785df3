import { appConfigSchema, DEFAULT_ACCENT_COLOR, routes } from '@latchkey/protocol'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { getTestInstance, type TestInstance } from '../test/instance.ts'
import { updateAppSettings } from './service.ts'

let t: TestInstance
beforeAll(async () => {
  t = await getTestInstance()
})
afterAll(() => t.close())

it('returns protocol appConfigSchema with sensible defaults', async () => {
  const res = await t.request(routes.appConfig(t.app.id))
  expect(res.status).toBe(200)
  const config = appConfigSchema.parse(res.body)
  expect(config).toMatchObject({
    id: t.app.id,
    name: 'Test App',
    accent_color: DEFAULT_ACCENT_COLOR,
    captcha_enabled: false,
    disable_plus_emails: false,
    embedded_wallet_config: { create_on_login: { ethereum: 'off', solana: 'off' } },
  })
  expect(config.login_methods.email).toBe(true)
  expect(
    Object.entries(config.login_methods)
      .filter(([, on]) => on)
      .map(([m]) => m),
  ).toEqual(['email'])
})

it('reflects the app settings', async () => {
  const app = await t.createApp({
    accent_color: '#000000',
    login_methods: { sms: true },
    require_users_accept_terms: true,
    terms_and_conditions_url: 'https://x.test/terms',
  })
  const res = await t.request(routes.appConfig(app.id), { appId: null })
  expect(res.body).toMatchObject({
    accent_color: '#000000',
    require_users_accept_terms: true,
    terms_and_conditions_url: 'https://x.test/terms',
    login_methods: { sms: true, email: true },
  })
  expect(res.body).not.toHaveProperty('secret_hash')
})

it('serves passkey sign-up as a setting, a switch and nothing else (tracker issue 16, item 6)', async () => {
  const off = await t.createApp({})
  expect((await t.request(routes.appConfig(off.id), { appId: null })).body).toMatchObject({
    passkeys_for_signup_enabled: false,
  })
  const on = await t.createApp({ passkeys_for_signup_enabled: true })
  expect((await t.request(routes.appConfig(on.id), { appId: null })).body).toMatchObject({
    passkeys_for_signup_enabled: true,
  })
  await expect(
    t.createApp({ passkeys_for_signup_enabled: 'yes' as unknown as boolean }),
  ).rejects.toThrow('passkeys_for_signup_enabled must be true or false')
})

it('serves mfa_methods (default none), a list of distinct methods among sms, totp and passkey (issue 18)', async () => {
  expect((await t.request(routes.appConfig(t.app.id))).body.mfa_methods).toEqual([])
  const app = await t.createApp({ mfa_methods: ['totp', 'passkey'] })
  expect((await t.request(routes.appConfig(app.id), { appId: null })).body).toMatchObject({
    mfa_methods: ['totp', 'passkey'],
  })
  for (const bad of [['email'], ['totp', 'totp'], 'totp', [1]])
    await expect(t.createApp({ mfa_methods: bad as unknown as Array<'totp'> })).rejects.toThrow(
      'mfa_methods must be a list of distinct methods among sms, totp, passkey',
    )
  // The CLI and updateAppSettings validate the same way (apps settings --set).
  await expect(updateAppSettings(t.db, app.id, { mfa_methods: ['fingerprint'] })).rejects.toThrow(
    'mfa_methods must be',
  )
  expect(await updateAppSettings(t.db, app.id, { mfa_methods: ['sms'] })).toMatchObject({
    mfa_methods: ['sms'],
  })
})
