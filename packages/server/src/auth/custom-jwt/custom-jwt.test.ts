import { routes } from '@latchkey/protocol'
import { exportSPKI, generateKeyPair, SignJWT } from 'jose'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { getTestInstance, type TestInstance } from '../../test/instance.ts'
import { startTestIssuer, type TestIssuer } from './testing.ts'

let t: TestInstance
let issuer: TestIssuer
beforeAll(async () => {
  t = await getTestInstance()
  issuer = await startTestIssuer(t.clock.now)
  // The app is created by getTestInstance; point it at the local JWKS.
  await t.db
    .updateTable('apps')
    .set({
      settings: JSON.stringify({
        login_methods: { email: true },
        custom_auth: { jwks_url: issuer.url, issuer: issuer.issuer, audience: issuer.audience },
      }),
    })
    .where('id', '=', t.app.id)
    .execute()
  t.server.services.apps.invalidate(t.app.id)
})
afterAll(async () => {
  await issuer.close()
  await t.close()
})

const authenticate = (token: string, mode?: string, appId?: string) =>
  t.request(routes.customJwtAuthenticate, {
    body: { token, ...(mode ? { mode } : {}) },
    ...(appId ? { appId } : {}),
  })

describe('custom JWT login', () => {
  it('signs up the custom account of a valid token, then logs the same user in', async () => {
    const first = await authenticate(await issuer.sign({ sub: 'app-user-1' }))
    expect(first.status).toBe(200)
    expect(first.body.is_new_user).toBe(true)
    expect(first.body.user.linked_accounts).toEqual([
      expect.objectContaining({ type: 'custom', custom_user_id: 'app-user-1' }),
    ])
    const again = await authenticate(await issuer.sign({ sub: 'app-user-1' }, { kid: 'key-2' }))
    expect(again.body).toMatchObject({ is_new_user: false, user: { id: first.body.user.id } })
  })

  it('no-signup refuses an unknown subject', async () => {
    const res = await authenticate(await issuer.sign({ sub: 'app-user-new' }), 'no-signup')
    expect(res).toMatchObject({ status: 404, body: { code: 'USER_DOES_NOT_EXIST' } })
  })

  it('links the custom account to a signed-in user, once', async () => {
    const login = await t.login('custom-link@example.com')
    const token = login.token ?? ''
    const linked = await t.request(routes.customJwtLink, {
      token,
      body: { token: await issuer.sign({ sub: 'app-user-link' }) },
    })
    expect(linked.status).toBe(200)
    expect(linked.body.linked_accounts.map((a: { type: string }) => a.type)).toEqual([
      'email',
      'custom',
    ])
    const second = await t.request(routes.customJwtLink, {
      token,
      body: { token: await issuer.sign({ sub: 'app-user-link-2' }) },
    })
    expect(second.body.code).toBe('CANNOT_LINK_MORE_OF_TYPE')
    const other = await t.login('custom-other@example.com')
    const taken = await t.request(routes.customJwtLink, {
      token: other.token ?? '',
      body: { token: await issuer.sign({ sub: 'app-user-link' }) },
    })
    expect(taken.body.code).toBe('ACCOUNT_ALREADY_LINKED')
    const viaJwt = await authenticate(await issuer.sign({ sub: 'app-user-link' }))
    expect(viaJwt.body.user.id).toBe(login.user.id)
  })

  it('caches the key set (one JWKS fetch for many logins)', async () => {
    const before = issuer.hits()
    for (let i = 0; i < 3; i++) await authenticate(await issuer.sign({ sub: 'cache-user' }))
    expect(issuer.hits()).toBe(before)
  })

  it('verifies with a configured PEM public key too', async () => {
    const { privateKey, publicKey } = await generateKeyPair('RS256')
    const app = await t.createApp({
      custom_auth: {
        public_key_pem: await exportSPKI(publicKey),
        issuer: 'https://pem.app.test',
        audience: 'pem-aud',
      },
    })
    const nowS = Math.floor(t.clock.now() / 1000)
    const token = await new SignJWT({ sub: 'pem-user' })
      .setProtectedHeader({ alg: 'RS256' })
      .setIssuer('https://pem.app.test')
      .setAudience('pem-aud')
      .setIssuedAt(nowS)
      .setExpirationTime(nowS + 60)
      .sign(privateKey)
    const res = await authenticate(token, undefined, app.id)
    expect(res.status).toBe(200)
    expect(res.body.user.linked_accounts[0].custom_user_id).toBe('pem-user')
  })

  it('refuses an invalid custom_auth setting when the app is saved', async () => {
    await expect(
      t.createApp({
        custom_auth: { jwks_url: 'http://evil.example/jwks', issuer: 'x', audience: 'y' },
      }),
    ).rejects.toThrow(/jwks_url must be an https URL/)
    await expect(
      t.createApp({
        custom_auth: {
          jwks_url: issuer.url,
          public_key_pem: '-----BEGIN PUBLIC KEY-----',
          issuer: 'x',
          audience: 'y',
        },
      }),
    ).rejects.toThrow(/exactly one of jwks_url and public_key_pem/)
  })

  it('is refused when the app has no (valid) custom_auth', async () => {
    const none = await t.createApp({})
    const invalid = await t.createApp({})
    // Stored settings written around createApp (an older version, a manual edit).
    await t.db
      .updateTable('apps')
      .set({
        settings: JSON.stringify({
          custom_auth: { jwks_url: 'http://evil.example/jwks', issuer: 'x', audience: 'y' },
        }),
      })
      .where('id', '=', invalid.id)
      .execute()
    for (const app of [none, invalid]) {
      const res = await authenticate(await issuer.sign({ sub: 'x' }), undefined, app.id)
      expect(res.body.code).toBe('LOGIN_METHOD_NOT_ALLOWED')
    }
  })
})
