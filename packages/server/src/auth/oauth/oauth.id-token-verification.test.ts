import { randomBytes } from 'node:crypto'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { silentLogger } from '../../config.ts'
import { startTestOidcProvider, type TestOidcProvider } from '../../test/oidc.ts'
import { verifyIdToken } from './client.ts'
import { providerSpec } from './providers.ts'

// Security bar 13 (ASVS 10.5): an id_token counts only with a signature by a
// key of the provider's JWKS, the exact issuer, aud = the app's client id,
// unexpired, and the nonce of this login. Keys come from the configured JWKS
// only; alg none is refused.
let oidc: TestOidcProvider
beforeAll(async () => {
  oidc = await startTestOidcProvider({ redirectUris: ['http://app.test/login'] })
})
afterAll(() => oidc.close())

const services = { logger: silentLogger, now: () => Date.now() }
const spec = () => providerSpec('google', { endpoints: { google: oidc.endpoints } })
const nonce = 'n-0S6_WzA2Mj'
const good = () => ({ iss: oidc.issuer, aud: oidc.clientId, sub: 'alice-sub', nonce })
const verify = (token: string | undefined) =>
  verifyIdToken(services, spec(), token, { clientId: oidc.clientId, nonce })

it('accepts a token signed by the provider with the right iss, aud and nonce', async () => {
  const claims = await verify(await oidc.signIdToken(good()))
  expect(claims.sub).toBe('alice-sub')
})

it.each([
  ['signed by a key outside the JWKS', { foreign: true }, {}],
  ['of another issuer', {}, { iss: 'https://accounts.example.com' }],
  ['for another client (aud)', {}, { aud: 'someone-else' }],
  ['with the nonce of another login', {}, { nonce: 'other' }],
  ['without a nonce', {}, { nonce: undefined }],
  ['expired', {}, { exp: Math.floor(Date.now() / 1000) - 3600 }],
])('refuses a token %s with 400 OAUTH_INVALID_CODE', async (_label, options, override) => {
  const token = await oidc.signIdToken({ ...good(), ...override }, options)
  await expect(verify(token)).rejects.toMatchObject({ code: 'OAUTH_INVALID_CODE' })
})

it('refuses an unsigned (alg none) token and a missing token', async () => {
  const b64 = (v: unknown) => Buffer.from(JSON.stringify(v)).toString('base64url')
  const unsigned = `${b64({ alg: 'none' })}.${b64({ ...good(), exp: 9e9 })}.`
  await expect(verify(unsigned)).rejects.toMatchObject({ code: 'OAUTH_INVALID_CODE' })
  await expect(verify(undefined)).rejects.toMatchObject({ code: 'OAUTH_INVALID_CODE' })
})

it('refuses an HMAC token keyed with the client secret (key confusion)', async () => {
  const { SignJWT } = await import('jose')
  const token = await new SignJWT({ ...good() })
    .setProtectedHeader({ alg: 'HS256' })
    .setExpirationTime('5m')
    .sign(new TextEncoder().encode(oidc.clientSecret + randomBytes(8).toString('hex')))
  await expect(verify(token)).rejects.toMatchObject({ code: 'OAUTH_INVALID_CODE' })
})
