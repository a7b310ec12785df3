import { appConfigSchema, routes } from '@latchkey/protocol'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { updateAppSettings } from '../apps/service.ts'
import { appSettingsCommand } from '../cli/app-settings.ts'
import { createCdpKey } from '../test/fake-coinbase.ts'
import { getTestInstance, type TestInstance } from '../test/instance.ts'
import { setAppSettings } from '../users/testing.ts'
import { allFundingOptions, MOONPAY_SECRET_KEY } from './testing.ts'

// `funding_config` of GET /api/v1/apps/:id (spec 03 §2, §3) from the app's
// `funding` settings, the credentials it has and the server's hosts; and
// the settings as `latchkey apps settings --set` writes them.
let t: TestInstance
beforeAll(async () => {
  t = await getTestInstance({
    funding: {
      moonpay: { apiUrl: 'http://127.0.0.1:9/moonpay' },
      bridge: {
        apiUrl: 'http://127.0.0.1:9/relay',
        testnetApiUrl: 'http://127.0.0.1:9/relay-test',
      },
    },
  })
})
afterAll(() => t?.close())

const config = async () => {
  const res = await t.request(routes.appConfig(t.app.id), { appId: null })
  expect(res.status).toBe(200)
  return appConfigSchema.parse(res.body).funding_config
}

describe('funding_config', () => {
  it('null without funding settings, when turned off, or with no option', async () => {
    expect(await config()).toBeNull()
    await setAppSettings(t, t.app.id, { funding: { ...allFundingOptions, enabled: false } })
    expect(await config()).toBeNull()
    await setAppSettings(t, t.app.id, { funding: { options: [] } })
    expect(await config()).toBeNull()
  })

  it('offers only what the app can serve: card and exchange need their provider keys', async () => {
    await setAppSettings(t, t.app.id, { funding: allFundingOptions })
    expect(await config()).toEqual({
      options: [
        { method: 'wallets', provider: null },
        { method: 'manual', provider: null },
      ],
      default_recommended_amount: '0.05',
      default_recommended_asset: 'native-currency',
      cross_chain_bridging_enabled: false,
      moonpay: null,
      bridge: null,
    })
    await t.server.setAppProviderCredentials(t.app.id, {
      provider: 'moonpay',
      secret_key: MOONPAY_SECRET_KEY,
    })
    const key = createCdpKey('ed25519')
    await t.server.setAppProviderCredentials(t.app.id, {
      provider: 'coinbase-onramp',
      api_key_name: key.name,
      api_key_secret: key.secret,
    })
    const full = await config()
    expect(full?.options).toEqual(allFundingOptions.options)
    expect(full?.moonpay).toEqual({
      publishable_key: 'pk_test_key',
      sandbox: true,
      api_url: 'http://127.0.0.1:9/moonpay',
    })
  })

  it('bridging: on when the app asks and the server has a bridge service', async () => {
    await setAppSettings(t, t.app.id, {
      funding: {
        ...allFundingOptions,
        cross_chain_bridging_enabled: true,
        default_recommended_asset: 'USDC',
      },
    })
    expect(await config()).toMatchObject({
      cross_chain_bridging_enabled: true,
      default_recommended_asset: 'USDC',
      bridge: {
        api_url: 'http://127.0.0.1:9/relay',
        testnet_api_url: 'http://127.0.0.1:9/relay-test',
      },
    })
    const off = await getTestInstance({
      funding: { bridge: null },
      appSettings: { funding: { ...allFundingOptions, cross_chain_bridging_enabled: true } },
    })
    try {
      const res = await off.request(routes.appConfig(off.app.id), { appId: null })
      expect(res.body.funding_config).toMatchObject({
        cross_chain_bridging_enabled: false,
        bridge: null,
      })
    } finally {
      await off.close()
    }
  })
})

describe('settings', () => {
  it('`apps settings --set` stores funding settings and the config follows', async () => {
    const out: string[] = []
    const code = await appSettingsCommand({
      db: t.db,
      appId: t.app.id,
      set: JSON.stringify({
        funding: {
          options: [{ method: 'manual', provider: null }],
          default_recommended_amount: '1.5',
        },
      }),
      out: (line) => out.push(line),
      err: (line) => out.push(line),
    })
    expect(code).toBe(0)
    t.server.services.apps.invalidate(t.app.id)
    expect(await config()).toMatchObject({
      options: [{ method: 'manual', provider: null }],
      default_recommended_amount: '1.5',
    })
  })

  it('refuses invalid funding settings naming the field', async () => {
    const cases: Array<[unknown, RegExp]> = [
      ['on', /must be an object/],
      [{ options: [{ method: 'cash', provider: null }] }, /each option/],
      [{ options: [{ method: 'exchange', provider: 'moonpay' }] }, /exchange needs coinbase/],
      [{ options: [{ method: 'manual', provider: 'moonpay' }] }, /manual need null/],
      [{ options: [{ method: 'card' }] }, /card needs provider/],
      [
        {
          options: [
            { method: 'manual', provider: null },
            { method: 'manual', provider: null },
          ],
        },
        /listed twice/,
      ],
      [{ default_recommended_amount: '0' }, /default_recommended_amount/],
      [{ default_recommended_amount: 1 }, /default_recommended_amount/],
      [{ default_recommended_asset: 'DAI' }, /default_recommended_asset/],
      [{ enabled: 'yes' }, /enabled must be true or false/],
      [{ moonpay: { publishable_key: 'sk_live_secret' } }, /publishable_key/],
      [{ moonpay: { publishable_key: 'pk_live_a', secret_key: 'x' } }, /only publishable_key/],
      [{ colour: 'blue' }, /unknown key colour/],
    ]
    for (const [funding, message] of cases)
      await expect(
        updateAppSettings(t.db, t.app.id, { funding }),
        JSON.stringify(funding),
      ).rejects.toThrow(message)
  })
})
