import { routes } from '@latchkey/protocol'
import {
  decodeJwt,
  decodeProtectedHeader,
  exportJWK,
  generateKeyPair,
  SignJWT,
  UnsecuredJWT,
} from 'jose'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { getTestInstance, type TestInstance } from '../test/instance.ts'

// Security bar 27–29: explicit typ; identity and refresh tokens are not access
// tokens; alg none and foreign keys are refused.
let t: TestInstance
beforeAll(async () => {
  t = await getTestInstance()
})
afterAll(() => t.close())

const me = (token: string) => t.request(routes.usersMe, { token })

it('an identity token is refused as an access token', async () => {
  const login = await t.login('typ@example.com')
  expect(decodeProtectedHeader(login.identity_token ?? '').typ).toBe('id+jwt')
  expect(await me(login.identity_token ?? '')).toMatchObject({
    status: 401,
    body: { code: 'UNAUTHORIZED' },
  })
  expect(await me(login.refresh_token ?? '')).toMatchObject({
    status: 401,
    body: { code: 'UNAUTHORIZED' },
  })
  expect((await me(login.token ?? '')).status).toBe(200)
})

it('alg none is refused', async () => {
  const login = await t.login('none@example.com')
  const claims = decodeJwt(login.token ?? '')
  const forged = new UnsecuredJWT({ ...claims }).encode()
  expect((await me(forged)).status).toBe(401)
})

it('a token signed by a foreign key (even with a known kid, or an embedded jwk) is refused', async () => {
  const login = await t.login('foreign-key@example.com')
  const claims = decodeJwt(login.token ?? '')
  const header = decodeProtectedHeader(login.token ?? '')
  const { privateKey, publicKey } = await generateKeyPair('ES256')
  const forged = await new SignJWT({ ...claims })
    .setProtectedHeader({
      alg: 'ES256',
      typ: 'at+jwt',
      kid: header.kid,
      jwk: await exportJWK(publicKey),
    })
    .sign(privateKey)
  expect((await me(forged)).status).toBe(401)
})

it('HS256 with the public key as secret (key confusion) is refused', async () => {
  const login = await t.login('hs@example.com')
  const claims = decodeJwt(login.token ?? '')
  const header = decodeProtectedHeader(login.token ?? '')
  const jwks = (await t.request(routes.jwks(t.app.id), { appId: null })).body
  const secret = new TextEncoder().encode(JSON.stringify(jwks.keys[0]))
  const forged = await new SignJWT({ ...claims })
    .setProtectedHeader({ alg: 'HS256', typ: 'at+jwt', kid: header.kid })
    .sign(secret)
  expect((await me(forged)).status).toBe(401)
})

it('a token for another app (audience) is refused', async () => {
  const other = await t.createApp()
  const login = await t.login('aud@example.com')
  expect(
    (await t.request(routes.usersMe, { token: login.token ?? '', appId: other.id })).status,
  ).toBe(401)
})
