import { routes } from '@latchkey/protocol'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { accessTokenHash } from '../test/enclave-key.ts'
import { getTestInstance, type TestInstance } from '../test/instance.ts'
import { hdBody } from '../test/wallets.ts'

// RFC 9449 §4.3: a proof names one request — its method (`htm`), this
// server's configured origin plus the path (`htu`), and the access token it
// goes with (`ath`). A proof for anything else is 401 ENCLAVE_PROOF_INVALID.
// The origin in `htu` comes from configuration, never from the Host header.
let t: TestInstance
let token: string
let otherToken: string
let wallet: ReturnType<typeof hdBody>
beforeAll(async () => {
  t = await getTestInstance()
  token = (await t.login('owner@example.com', { enclaveKey: t.enclaveKey })).token ?? ''
  // A second session of the same user, bound to the same key.
  otherToken = (await t.login('owner@example.com', { enclaveKey: t.enclaveKey })).token ?? ''
  wallet = hdBody()
  const created = await t.enclaveRequest(routes.embeddedWalletsCreate, { token, body: wallet })
  expect(created.status).toBe(200)
})
afterAll(() => t.close())

const refused = { status: 401, body: { code: 'ENCLAVE_PROOF_INVALID' } }
const path = routes.embeddedWalletsAuthShare

const authShare = (options: Parameters<TestInstance['enclaveRequest']>[1] = {}) =>
  t.enclaveRequest(path, { token, body: { entropy_id: wallet.entropy_id }, ...options })

it('a proof for another method is refused', async () => {
  for (const method of ['GET', 'post', 'PUT'])
    expect({ method, ...(await authShare({ proof: { method } })) }).toMatchObject({
      method,
      ...refused,
    })
})

it('a proof for another path, or the same path written differently, is refused', async () => {
  for (const htu of [
    `${t.ownOrigin}${routes.embeddedWalletsRecovery}`,
    `${t.ownOrigin}${path}/`,
    `${t.ownOrigin}${path}?x=1`,
    `${t.ownOrigin}${path}#f`,
    `${t.ownOrigin}${path.toUpperCase()}`,
    path,
  ])
    expect({ htu, ...(await authShare({ proof: { htu } })) }).toMatchObject({ htu, ...refused })
})

it('a proof for another origin is refused, even when the Host header names it', async () => {
  for (const host of ['evil.test', 'latchkey.test.evil.test']) {
    const evil = `http://${host}`
    // Through the evil name: the request URL, and so the Host, say evil.test.
    const res = await t.enclaveRequest(`${evil}${path}`, {
      token,
      body: { entropy_id: wallet.entropy_id },
      headers: { host },
      proof: { htu: `${evil}${path}` },
    })
    expect({ host, ...res }).toMatchObject({ host, ...refused })
    expect(JSON.stringify(res.body)).not.toContain(wallet.auth_share)
  }
  for (const htu of [`https://latchkey.test${path}`, `http://latchkey.test:8080${path}`])
    expect({ htu, ...(await authShare({ proof: { htu } })) }).toMatchObject({ htu, ...refused })
  // What counts is the configured origin: the Host header changes nothing either way.
  const viaEvilHost = await t.enclaveRequest(`http://evil.test${path}`, {
    token,
    body: { entropy_id: wallet.entropy_id },
    headers: { host: 'evil.test' },
  })
  expect(viaEvilHost.status).toBe(200)
})

it('a proof for another access token (even one of the same key) is refused', async () => {
  expect(await authShare({ proof: { ath: accessTokenHash(otherToken) } })).toMatchObject(refused)
  expect(await authShare({ proof: { ath: undefined, claims: { ath: undefined } } })).toMatchObject(
    refused,
  )
  expect(await authShare({ proof: { ath: accessTokenHash(`${token} `) } })).toMatchObject(refused)
  // The other token with its own proof is fine: the key is the same, the binding is per request.
  expect((await authShare({ token: otherToken })).status).toBe(200)
})

it('the request the proof names is answered', async () => {
  expect(await authShare()).toMatchObject({ status: 200, body: { auth_share: wallet.auth_share } })
})
