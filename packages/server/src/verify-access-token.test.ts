import { routes } from '@latchkey/protocol'
import {
  decodeJwt,
  decodeProtectedHeader,
  exportJWK,
  generateKeyPair,
  SignJWT,
  UnsecuredJWT,
} from 'jose'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startServer } from './start.ts'
import { getTestInstance, type TestInstance } from './test/instance.ts'
import { verifyAccessToken } from './verify.ts'

// The helper app backends use (security bar 27–29).
let t: TestInstance
let jwks: { keys: object[] }
let login: Awaited<ReturnType<TestInstance['login']>>
const issuer = 'http://latchkey.test'
const MASTER_KEY = Buffer.alloc(32, 7)
beforeAll(async () => {
  t = await getTestInstance({ now: Date.now, masterKey: MASTER_KEY })
  jwks = (await t.request('/.well-known/jwks.json', { appId: null })).body
  login = await t.login('backend@example.com')
})
afterAll(() => t.close())

describe('verifyAccessToken', () => {
  it('accepts a real access token and returns its claims', async () => {
    const claims = await verifyAccessToken(login.token ?? '', {
      appId: t.app.id,
      issuer,
      jwks: jwks as never,
    })
    expect(claims).toMatchObject({ sub: login.user.id, aud: t.app.id, iss: issuer })
    expect(typeof claims.sid).toBe('string')
  })

  it('refuses an identity token (typ id+jwt)', async () => {
    await expect(
      verifyAccessToken(login.identity_token ?? '', {
        appId: t.app.id,
        issuer,
        jwks: jwks as never,
      }),
    ).rejects.toThrow()
  })

  it('refuses the wrong audience and the wrong issuer', async () => {
    await expect(
      verifyAccessToken(login.token ?? '', { appId: 'a'.repeat(25), issuer, jwks: jwks as never }),
    ).rejects.toThrow()
    await expect(
      verifyAccessToken(login.token ?? '', {
        appId: t.app.id,
        issuer: 'http://evil.test',
        jwks: jwks as never,
      }),
    ).rejects.toThrow()
  })

  it('refuses alg none', async () => {
    const forged = new UnsecuredJWT(decodeJwt(login.token ?? '')).encode()
    await expect(
      verifyAccessToken(forged, { appId: t.app.id, issuer, jwks: jwks as never }),
    ).rejects.toThrow()
  })

  it('refuses HS256 signed with the public key (key confusion)', async () => {
    const header = decodeProtectedHeader(login.token ?? '')
    const secret = new TextEncoder().encode(JSON.stringify(jwks.keys[0]))
    const forged = await new SignJWT(decodeJwt(login.token ?? ''))
      .setProtectedHeader({ alg: 'HS256', typ: 'at+jwt', kid: header.kid })
      .sign(secret)
    await expect(
      verifyAccessToken(forged, { appId: t.app.id, issuer, jwks: jwks as never }),
    ).rejects.toThrow()
  })

  it('refuses a token signed by a key outside the JWKS, even one embedded in the header', async () => {
    const { privateKey, publicKey } = await generateKeyPair('ES256')
    const forged = await new SignJWT(decodeJwt(login.token ?? ''))
      .setProtectedHeader({
        alg: 'ES256',
        typ: 'at+jwt',
        kid: decodeProtectedHeader(login.token ?? '').kid,
        jwk: await exportJWK(publicKey),
      })
      .sign(privateKey)
    await expect(
      verifyAccessToken(forged, { appId: t.app.id, issuer, jwks: jwks as never }),
    ).rejects.toThrow()
  })

  it('refuses an expired token', async () => {
    await expect(
      verifyAccessToken(login.token ?? '', {
        appId: t.app.id,
        issuer,
        jwks: jwks as never,
        currentDate: new Date(Date.now() + 2 * 3600_000),
      }),
    ).rejects.toThrow(/exp/)
  })

  it('fetches keys from a real JWKS URL', async () => {
    const running = await startServer({
      port: 0,
      db: t.db,
      masterKey: MASTER_KEY,
      logger: { info() {}, warn() {}, error() {} },
    })
    try {
      const jwksUrl = `${running.url}/.well-known/jwks.json`
      const res = await running.server.app.request(routes.jwks(t.app.id))
      expect(res.status).toBe(200)
      // The test instance's keys live in the same database, so they are published here too.
      const claims = await verifyAccessToken(login.token ?? '', {
        appId: t.app.id,
        issuer,
        jwksUrl,
      })
      expect(claims.sub).toBe(login.user.id)
    } finally {
      await running.close()
    }
  })
})
