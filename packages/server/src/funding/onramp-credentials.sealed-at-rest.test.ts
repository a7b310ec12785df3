import { routes } from '@latchkey/protocol'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  getAppProviderCredentials,
  PROVIDER_CREDENTIALS_PURPOSE,
  providerCredentialAad,
} from '../apps/credentials.ts'
import type { Logger } from '../config.ts'
import { createCdpKey, type FakeCoinbase, startFakeCoinbase } from '../test/fake-coinbase.ts'
import { getTestInstance, type TestInstance } from '../test/instance.ts'
import { allFundingOptions, type FundingUser, userWithWallets } from './testing.ts'

// The on-ramp secrets — MoonPay's secret key, the Coinbase CDP private key —
// live only on the server, sealed at rest like every provider credential
// (AES-256-GCM under the provider-credentials key, app + provider + column
// bound): no row holds them in any encoding, a blob moved to another app
// does not open, and no answer or log line carries them.
const MOONPAY_SECRET = 'sk_live_Zq8Rt3Yw0Vn5Lk2Jh7Gf4Ds1Aa9Pp6Oo'
const key = createCdpKey('ec')
const logs: string[] = []
const logger: Logger = {
  info: (m) => logs.push(m),
  warn: (m) => logs.push(m),
  error: (m) => logs.push(m),
}

let cb: FakeCoinbase
let t: TestInstance
let alice: FundingUser
beforeAll(async () => {
  cb = await startFakeCoinbase({ key, now: () => t.clock.now() })
  t = await getTestInstance({
    appSettings: {
      funding: {
        ...allFundingOptions,
        moonpay: { publishable_key: 'pk_live_abc', sandbox: false },
      },
    },
    funding: { coinbase: { apiUrl: cb.url } },
    logger,
  })
  await t.server.setAppProviderCredentials(t.app.id, {
    provider: 'moonpay',
    secret_key: MOONPAY_SECRET,
  })
  await t.server.setAppProviderCredentials(t.app.id, {
    provider: 'coinbase-onramp',
    api_key_name: key.name,
    api_key_secret: key.secret,
  })
  alice = await userWithWallets(t, 'alice@example.com')
})
afterAll(async () => {
  await t?.close()
  await cb?.close()
})

const secretForms = (secret: string) => [
  secret,
  Buffer.from(secret).toString('hex'),
  Buffer.from(secret).toString('base64'),
  Buffer.from(secret).toString('base64url'),
]
const pemBody = key.secret.split('\n').slice(1, -2).join('')

describe('at rest', () => {
  it('rows hold neither secret in any encoding; the key name and nothing else stays readable', async () => {
    const dump = JSON.stringify(
      await t.db.selectFrom('app_provider_credentials').selectAll().execute(),
    )
    for (const form of [...secretForms(MOONPAY_SECRET), ...secretForms(key.secret), pemBody])
      expect(dump).not.toContain(form)
    const row = await t.db
      .selectFrom('app_provider_credentials')
      .selectAll()
      .where('app_id', '=', t.app.id)
      .where('provider', '=', 'coinbase-onramp')
      .executeTakeFirstOrThrow()
    expect(row.client_id).toBe(key.name)
    expect(row.client_secret).toMatch(/^v1\./)
  })

  it('they unseal for their app and provider only', async () => {
    expect(await getAppProviderCredentials(t.server.services, t.app.id, 'moonpay')).toEqual({
      provider: 'moonpay',
      secret_key: MOONPAY_SECRET,
    })
    expect(await getAppProviderCredentials(t.server.services, t.app.id, 'coinbase-onramp')).toEqual(
      { provider: 'coinbase-onramp', api_key_name: key.name, api_key_secret: key.secret },
    )
    const { secrets } = t.server.services
    const sealed = secrets.encrypt(
      PROVIDER_CREDENTIALS_PURPOSE,
      providerCredentialAad(t.app.id, 'moonpay', 'client_secret'),
      MOONPAY_SECRET,
    )
    // The MoonPay blob under the Coinbase row (or another app's) does not open.
    expect(() =>
      secrets.decrypt(
        PROVIDER_CREDENTIALS_PURPOSE,
        providerCredentialAad(t.app.id, 'coinbase-onramp', 'client_secret'),
        sealed,
      ),
    ).toThrow()
    expect(() =>
      secrets.decrypt(
        PROVIDER_CREDENTIALS_PURPOSE,
        providerCredentialAad('otherapp0000000000000000a', 'moonpay', 'client_secret'),
        sealed,
      ),
    ).toThrow()
  })
})

describe('in use', () => {
  it('the app config and the answers carry no secret; failures log none', async () => {
    const config = await t.request(routes.appConfig(t.app.id), { appId: null })
    const signed = await t.request(routes.fundingMoonpaySign, {
      token: alice.token,
      body: { address: alice.ethereum, currency_code: 'eth', use_sandbox: false },
    })
    expect(signed.status).toBe(200)
    cb.setMode('error')
    const failed = await t.request(routes.fundingCoinbaseSession, {
      token: alice.token,
      body: { chain: 1, address: alice.ethereum, asset: 'ETH', experience: 'buy' },
    })
    expect(failed.status).toBe(502)
    expect(logs.some((line) => line.includes('coinbase onramp'))).toBe(true)
    const seen = JSON.stringify([config.body, signed.body, failed.body, logs])
    for (const form of [...secretForms(MOONPAY_SECRET), ...secretForms(key.secret), pemBody])
      expect(seen).not.toContain(form)
    expect(config.body.funding_config.moonpay).toEqual({
      publishable_key: 'pk_live_abc',
      sandbox: false,
      api_url: 'https://api.moonpay.com',
    })
  })

  it('invalid credentials are refused naming the field, never echoing the value', async () => {
    const bad = 'not-a-key-but-secret-looking-0123456789'
    await expect(
      t.server.setAppProviderCredentials(t.app.id, {
        provider: 'coinbase-onramp',
        api_key_name: key.name,
        api_key_secret: bad,
      }),
    ).rejects.toThrow(/api_key_secret/)
    await expect(
      t.server.setAppProviderCredentials(t.app.id, { provider: 'moonpay', secret_key: bad }),
    ).rejects.toThrow(/secret_key/)
    const error = await t.server
      .setAppProviderCredentials(t.app.id, { provider: 'moonpay', secret_key: bad })
      .catch((e: Error) => e.message)
    expect(error).not.toContain(bad)
  })
})
