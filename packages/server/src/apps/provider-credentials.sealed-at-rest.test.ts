import { routes } from '@latchkey/protocol'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Logger } from '../config.ts'
import {
  type CloudTestInstance,
  GOOGLE_CLIENT,
  getCloudTestInstance,
  ICLOUD_CONTAINER,
  pkce,
  REDIRECT_TO,
  stateCode,
} from '../test/cloud.ts'
import {
  getAppProviderCredentials,
  PROVIDER_CREDENTIALS_PURPOSE,
  providerCredentialAad,
} from './credentials.ts'

// Security bars 45 and 50 for provider credentials: the Google client secret
// and the CloudKit API token are sealed at rest (AES-256-GCM under a key
// derived for this purpose only, app id + provider + column bound as
// associated data); a tampered or moved blob never opens, and no log line or
// error message carries a credential.
const logs: string[] = []
const logger: Logger = {
  info: (m) => logs.push(m),
  warn: (m) => logs.push(m),
  error: (m) => logs.push(m),
}
const secrets = [GOOGLE_CLIENT.clientSecret, ICLOUD_CONTAINER.apiToken]

let t: CloudTestInstance
let token: string
beforeAll(async () => {
  t = await getCloudTestInstance({ logger })
  token = await t.userToken('alice@example.com')
})
afterAll(() => t.close())

const rowOf = (appId: string, provider: string) =>
  t.db
    .selectFrom('app_provider_credentials')
    .selectAll()
    .where('app_id', '=', appId)
    .where('provider', '=', provider)
    .executeTakeFirstOrThrow()
const setSealed = (appId: string, provider: string, client_secret: string) =>
  t.db
    .updateTable('app_provider_credentials')
    .set({ client_secret })
    .where('app_id', '=', appId)
    .where('provider', '=', provider)
    .execute()
const initGoogle = (tok = token, appId?: string) =>
  t.request(routes.recoveryOAuthInit, {
    token: tok,
    ...(appId ? { appId } : {}),
    body: {
      provider: 'google-drive',
      redirect_to: REDIRECT_TO,
      code_challenge: pkce().challenge,
      state_code: stateCode(),
    },
  })

describe('at rest', () => {
  it('rows hold no client secret or API token, in any encoding; non-secrets stay readable', async () => {
    const dump = JSON.stringify(
      await t.db.selectFrom('app_provider_credentials').selectAll().execute(),
    )
    for (const secret of secrets)
      for (const form of [
        secret,
        Buffer.from(secret).toString('hex'),
        Buffer.from(secret).toString('base64'),
        Buffer.from(secret).toString('base64url'),
      ])
        expect(dump).not.toContain(form)
    const google = await rowOf(t.app.id, 'google-drive')
    expect(google).toMatchObject({ client_id: GOOGLE_CLIENT.clientId, settings: '{}' })
    const icloud = await rowOf(t.app.id, 'icloud')
    expect(icloud.client_id).toBeNull()
    expect(JSON.parse(icloud.settings)).toEqual({
      container_id: ICLOUD_CONTAINER.containerId,
      environment: 'development',
    })
    for (const row of [google, icloud])
      expect(row.client_secret).toMatch(/^v1\.[\w-]+\.[\w-]+\.[\w-]+$/)
  })

  it('they open only under their own purpose and associated data', async () => {
    const sealed = (await rowOf(t.app.id, 'google-drive')).client_secret ?? ''
    const box = t.server.services.secrets
    const aad = providerCredentialAad(t.app.id, 'google-drive', 'client_secret')
    expect(box.decrypt(PROVIDER_CREDENTIALS_PURPOSE, aad, sealed).toString()).toBe(
      GOOGLE_CLIENT.clientSecret,
    )
    expect(() => box.decrypt('auth-shares', aad, sealed)).toThrow()
    expect(() =>
      box.decrypt(
        PROVIDER_CREDENTIALS_PURPOSE,
        providerCredentialAad(t.app.id, 'icloud', 'client_secret'),
        sealed,
      ),
    ).toThrow()
  })

  it('set replaces (new seal), delete removes', async () => {
    const app = await t.createApp(t.app.settings)
    await t.server.setAppProviderCredentials(app.id, {
      provider: 'google-drive',
      client_id: 'first',
      client_secret: 'first-secret',
    })
    const first = await rowOf(app.id, 'google-drive')
    await t.server.setAppProviderCredentials(app.id, {
      provider: 'google-drive',
      client_id: 'second',
      client_secret: 'second-secret',
    })
    const second = await rowOf(app.id, 'google-drive')
    expect(second.client_id).toBe('second')
    expect(second.client_secret).not.toBe(first.client_secret)
    expect(second.created_at).toBe(first.created_at)
    expect(await getAppProviderCredentials(t.server.services, app.id, 'google-drive')).toEqual({
      provider: 'google-drive',
      client_id: 'second',
      client_secret: 'second-secret',
    })
    expect(await t.server.deleteAppProviderCredentials(app.id, 'google-drive')).toBe(true)
    expect(await t.server.deleteAppProviderCredentials(app.id, 'google-drive')).toBe(false)
    expect(
      await getAppProviderCredentials(t.server.services, app.id, 'google-drive'),
    ).toBeUndefined()
  })

  it('deleting an app deletes its credentials (cascade)', async () => {
    const app = await t.createApp({})
    await t.server.setAppProviderCredentials(app.id, {
      provider: 'google-drive',
      client_id: 'gone',
      client_secret: 'gone-secret',
    })
    await t.db.deleteFrom('apps').where('id', '=', app.id).execute()
    expect(
      await t.db
        .selectFrom('app_provider_credentials')
        .select('app_id')
        .where('app_id', '=', app.id)
        .execute(),
    ).toEqual([])
  })
})

describe('tampering and moving', () => {
  it('a tampered secret gives 500 INTERNAL_ERROR and is never used', async () => {
    const original = (await rowOf(t.app.id, 'google-drive')).client_secret ?? ''
    const parts = original.split('.')
    const bytes = Buffer.from(parts[2] ?? '', 'base64url')
    bytes[0] = (bytes[0] ?? 0) ^ 1
    parts[2] = bytes.toString('base64url')
    await setSealed(t.app.id, 'google-drive', parts.join('.'))
    const res = await initGoogle()
    expect(res).toMatchObject({ status: 500, body: { code: 'INTERNAL_ERROR' } })
    expect(Object.keys(res.body).sort()).toEqual(['code', 'message'])
    await setSealed(t.app.id, 'google-drive', original)
    expect((await initGoogle()).status).toBe(200)
  })

  it('a secret copied to another app or provider fails to open', async () => {
    const other = await t.createApp(t.app.settings)
    await t.server.setAppProviderCredentials(other.id, {
      provider: 'google-drive',
      client_id: GOOGLE_CLIENT.clientId,
      client_secret: 'other-secret',
    })
    const otherToken = (await t.login('bob@example.com', { appId: other.id })).token ?? ''
    expect((await initGoogle(otherToken, other.id)).status).toBe(200)
    const mine = (await rowOf(t.app.id, 'google-drive')).client_secret ?? ''
    await setSealed(other.id, 'google-drive', mine)
    expect(await initGoogle(otherToken, other.id)).toMatchObject({
      status: 500,
      body: { code: 'INTERNAL_ERROR' },
    })
    // The iCloud token moved into the Google row of the same app.
    const icloud = (await rowOf(t.app.id, 'icloud')).client_secret ?? ''
    const google = (await rowOf(t.app.id, 'google-drive')).client_secret ?? ''
    await setSealed(t.app.id, 'google-drive', icloud)
    expect((await initGoogle()).status).toBe(500)
    await setSealed(t.app.id, 'google-drive', google)
    expect((await initGoogle()).status).toBe(200)
  })
})

describe('validation', () => {
  it('refuses invalid credentials with a message naming the field, never the value', async () => {
    const cases: Array<[object, string]> = [
      [
        { provider: 'google-drive', client_id: 'id', client_secret: 'has space s3cr3t' },
        'client_secret',
      ],
      [{ provider: 'google-drive', client_id: '', client_secret: 'x' }, 'client_id'],
      [
        {
          provider: 'icloud',
          container_id: '../../admin',
          environment: 'development',
          api_token: 't',
        },
        'container_id',
      ],
      [
        {
          provider: 'icloud',
          container_id: 'iCloud.a.b',
          environment: 'staging',
          api_token: 't',
        },
        'environment',
      ],
      [
        {
          provider: 'icloud',
          container_id: 'iCloud.a.b',
          environment: 'production',
          api_token: 'tok&ckWebAuthToken=x',
        },
        'api_token',
      ],
    ]
    for (const [credentials, field] of cases) {
      const error = await t.server.setAppProviderCredentials(t.app.id, credentials as never).then(
        () => undefined,
        (e: Error) => e,
      )
      expect(error?.message, field).toContain(field)
      expect(error?.message).not.toContain('s3cr3t')
      expect(error?.message).not.toContain('ckWebAuthToken=x')
    }
    await expect(
      t.server.setAppProviderCredentials('zzzzzzzzzzzzzzzzzzzzzzzzz', {
        provider: 'google-drive',
        client_id: 'a',
        client_secret: 'b',
      }),
    ).rejects.toThrow('No app with id zzzzzzzzzzzzzzzzzzzzzzzzz')
  })
})

it('no log line carries a credential (security bar 50)', () => {
  expect(logs.some((l) => l.includes('failed to unseal'))).toBe(true)
  const all = logs.join('\n')
  for (const secret of [...secrets, 'other-secret']) expect(all).not.toContain(secret)
})
