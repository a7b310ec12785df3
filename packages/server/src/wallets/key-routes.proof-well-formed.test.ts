import { createHmac, randomBytes } from 'node:crypto'
import { ENCLAVE_PROOF_JTI_MAX_LENGTH, Header, routes } from '@latchkey/protocol'
import { CompactSign, calculateJwkThumbprint, exportJWK, generateKeyPair } from 'jose'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { accessTokenHash } from '../test/enclave-key.ts'
import { getTestInstance, type TestInstance } from '../test/instance.ts'
import { hdBody } from '../test/wallets.ts'

// The proof itself (RFC 9449 §4.2, §4.3): exactly one `dpop` header holding a
// JWS of typ dpop+jwt, alg ES256, signed by the public P-256 key in its
// header, with a jti of 1..64 characters. Anything else is 401
// ENCLAVE_PROOF_INVALID.
let t: TestInstance
let token: string
let wallet: ReturnType<typeof hdBody>
beforeAll(async () => {
  t = await getTestInstance()
  token = (await t.login('owner@example.com', { enclaveKey: t.enclaveKey })).token ?? ''
  wallet = hdBody()
  const created = await t.enclaveRequest(routes.embeddedWalletsCreate, { token, body: wallet })
  expect(created.status).toBe(200)
})
afterAll(() => t.close())

const refused = { status: 401, body: { code: 'ENCLAVE_PROOF_INVALID' } }
const path = routes.embeddedWalletsAuthShare
const b64 = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url')

const authShare = (options: Parameters<TestInstance['enclaveRequest']>[1] = {}) =>
  t.enclaveRequest(path, { token, body: { entropy_id: wallet.entropy_id }, ...options })
const withHeader = (dpop: string) =>
  authShare({ proof: null, headers: { [Header.enclaveProof]: dpop } })
const claims = () => ({
  htm: 'POST',
  htu: `${t.ownOrigin}${path}`,
  iat: Math.floor(t.clock.now() / 1000),
  jti: randomBytes(8).toString('base64url'),
  ath: accessTokenHash(token),
})

it('two dpop headers are refused, even two valid proofs', async () => {
  const proof = () => t.enclaveKey.proof({ path, token, now: t.clock.now() })
  const headers = new Headers({
    [Header.appId]: t.app.id,
    authorization: `Bearer ${token}`,
    origin: t.ownOrigin,
    'content-type': 'application/json',
  })
  headers.append(Header.enclaveProof, await proof())
  headers.append(Header.enclaveProof, await proof())
  const res = await t.server.app.request(path, {
    method: 'POST',
    headers,
    body: JSON.stringify({ entropy_id: wallet.entropy_id }),
  })
  expect(res.status).toBe(401)
  expect(await res.json()).toMatchObject({ code: 'ENCLAVE_PROOF_INVALID' })
})

it('another typ, or none, is refused', async () => {
  for (const typ of ['JWT', 'at+jwt', undefined])
    expect({ typ, ...(await authShare({ proof: { header: { typ } } })) }).toMatchObject({
      typ,
      ...refused,
    })
})

it("alg none, an HMAC 'signature', or no signature are refused", async () => {
  const unsigned = `${b64({ typ: 'dpop+jwt', alg: 'none', jwk: t.enclaveKey.jwk })}.${b64(claims())}.`
  expect(await withHeader(unsigned)).toMatchObject(refused)
  const k = randomBytes(32)
  const input = `${b64({ typ: 'dpop+jwt', alg: 'HS256', jwk: { kty: 'oct', k: k.toString('base64url') } })}.${b64(claims())}`
  const hmac = createHmac('sha256', k).update(input).digest('base64url')
  expect(await withHeader(`${input}.${hmac}`)).toMatchObject(refused)
  const valid = await t.enclaveKey.proof({ path, token, now: t.clock.now() })
  expect(await withHeader(valid.slice(0, valid.lastIndexOf('.') + 1))).toMatchObject(refused)
})

it('a private key in the header is refused, even the bound key signing for itself', async () => {
  // A key whose private half is exportable, and a session bound to its thumbprint
  // (RFC 7638 covers only the public members, so `d` does not change it).
  const { privateKey } = await generateKeyPair('ES256', { extractable: true })
  const full = await exportJWK(privateKey)
  expect(full.d).toEqual(expect.any(String))
  const jkt = await calculateJwkThumbprint(full, 'sha256')
  const res = await t.request(routes.emailInit, { body: { email: 'exportable@example.com' } })
  expect(res.status).toBe(200)
  const login = await t.request(routes.emailAuthenticate, {
    body: { email: 'exportable@example.com', code: await t.lastCode('exportable@example.com') },
    headers: { [Header.enclaveKey]: jkt },
  })
  expect(login.status).toBe(200)
  const own: string = login.body.token
  const sign = (jwk: object) =>
    new CompactSign(
      new TextEncoder().encode(
        JSON.stringify({
          ...claims(),
          htu: `${t.ownOrigin}${routes.embeddedWalletsCreate}`,
          ath: accessTokenHash(own),
        }),
      ),
    )
      .setProtectedHeader({ typ: 'dpop+jwt', alg: 'ES256', jwk })
      .sign(privateKey)
  const call = async (jwk: object) =>
    t.enclaveRequest(routes.embeddedWalletsCreate, {
      token: own,
      body: hdBody(),
      proof: null,
      headers: { [Header.enclaveProof]: await sign(jwk) },
    })
  expect(
    await call({ kty: full.kty, crv: full.crv, x: full.x, y: full.y, d: full.d }),
  ).toMatchObject(refused)
  // The same proof with the public half only is accepted: the refusal was the `d`.
  const { kty, crv, x, y } = full
  expect((await call({ kty, crv, x, y })).status).toBe(200)
})

it('a jti of 1 to 64 characters is accepted; empty, longer or not a string is refused', async () => {
  expect(ENCLAVE_PROOF_JTI_MAX_LENGTH).toBe(64)
  expect((await authShare({ proof: { jti: 'j' } })).status).toBe(200)
  expect((await authShare({ proof: { jti: 'x'.repeat(64) } })).status).toBe(200)
  expect(await authShare({ proof: { jti: '' } })).toMatchObject(refused)
  expect(await authShare({ proof: { jti: 'y'.repeat(65) } })).toMatchObject(refused)
  expect(await authShare({ proof: { claims: { jti: 7 } } })).toMatchObject(refused)
  expect(await authShare({ proof: { claims: { jti: undefined } } })).toMatchObject(refused)
})

it('an oversized proof is refused before it is parsed', async () => {
  expect(await authShare({ proof: { claims: { pad: 'p'.repeat(3000) } } })).toMatchObject(refused)
})
