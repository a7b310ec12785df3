import { createHmac } from 'node:crypto'
import { routes } from '@latchkey/protocol'
import { exportJWK, generateKeyPair, SignJWT } from 'jose'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { getTestInstance, type TestInstance } from '../../test/instance.ts'
import { startTestIssuer, type TestIssuer } from './testing.ts'

// Security bars 27, 28 and 30: only the app's keys, issuer and audience; exp
// and nbf enforced; alg:none and HMAC-with-the-public-key refused.
let t: TestInstance
let issuer: TestIssuer
beforeAll(async () => {
  t = await getTestInstance()
  issuer = await startTestIssuer(t.clock.now)
  await t.db
    .updateTable('apps')
    .set({
      settings: JSON.stringify({
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

const b64 = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url')
const nowS = () => Math.floor(t.clock.now() / 1000)
const expectRefused = async (token: string, reason?: string) => {
  const users = await t.countRows('users')
  const res = await t.request(routes.customJwtAuthenticate, { body: { token } })
  expect(res).toMatchObject({
    status: 400,
    body: { code: 'AUTHENTICATION_FAILED', message: 'Authentication failed' },
  })
  if (reason) expect(res.body.details.reason).toBe(reason)
  expect(await t.countRows('users')).toBe(users)
}

describe('custom JWT verification', () => {
  it('accepts a valid token (control)', async () => {
    const res = await t.request(routes.customJwtAuthenticate, {
      body: { token: await issuer.sign({ sub: 'ok' }) },
    })
    expect(res.status).toBe(200)
  })

  it('refuses a wrong issuer', async () => {
    await expectRefused(
      await issuer.sign({ sub: 'u', iss: 'https://evil.test' }),
      'ERR_JWT_CLAIM_VALIDATION_FAILED',
    )
  })

  it('refuses a wrong audience', async () => {
    await expectRefused(
      await issuer.sign({ sub: 'u', aud: 'another-app' }),
      'ERR_JWT_CLAIM_VALIDATION_FAILED',
    )
  })

  it('refuses an expired token, and one not yet valid', async () => {
    await expectRefused(
      await issuer.sign({ sub: 'u' }, { iat: nowS() - 3600, exp: nowS() - 60 }),
      'ERR_JWT_EXPIRED',
    )
    await expectRefused(
      await issuer.sign({ sub: 'u', nbf: nowS() + 600 }),
      'ERR_JWT_CLAIM_VALIDATION_FAILED',
    )
  })

  it('refuses a token without exp', async () => {
    await expectRefused(
      await issuer.sign({ sub: 'u' }, { exp: null }),
      'ERR_JWT_CLAIM_VALIDATION_FAILED',
    )
  })

  it('refuses alg:none', async () => {
    const claims = { sub: 'u', iss: issuer.issuer, aud: issuer.audience, exp: nowS() + 600 }
    await expectRefused(`${b64({ alg: 'none', typ: 'JWT' })}.${b64(claims)}.`)
    await expectRefused(`${b64({ alg: 'none', kid: 'key-1' })}.${b64(claims)}.`)
  })

  it('refuses HS256 signed with the public key (key confusion)', async () => {
    const response = await fetch(issuer.url)
    const jwks = (await response.json()) as { keys: Array<Record<string, string>> }
    const publicJwk = JSON.stringify(jwks.keys[0])
    const header = b64({ alg: 'HS256', kid: 'key-1' })
    const payload = b64({ sub: 'u', iss: issuer.issuer, aud: issuer.audience, exp: nowS() + 600 })
    const signature = createHmac('sha256', publicJwk)
      .update(`${header}.${payload}`)
      .digest('base64url')
    await expectRefused(`${header}.${payload}.${signature}`, 'ERR_JOSE_ALG_NOT_ALLOWED')
  })

  it('refuses an unknown kid and a key that is not in the JWKS', async () => {
    const { privateKey, publicKey } = await generateKeyPair('ES256')
    const jwk = await exportJWK(publicKey)
    const signWith = (header: Record<string, unknown>) =>
      new SignJWT({ sub: 'u', iss: issuer.issuer, aud: issuer.audience })
        .setProtectedHeader({ alg: 'ES256', ...header })
        .setIssuedAt(nowS())
        .setExpirationTime(nowS() + 600)
        .sign(privateKey)
    await expectRefused(await signWith({ kid: 'unknown-kid' }), 'ERR_JWKS_NO_MATCHING_KEY')
    // A key embedded in the header (jwk) is never trusted.
    await expectRefused(await signWith({ kid: 'key-1', jwk }))
  })

  it('refuses a token without a subject', async () => {
    await expectRefused(await issuer.sign({}), 'ERR_NO_SUBJECT')
  })
})
