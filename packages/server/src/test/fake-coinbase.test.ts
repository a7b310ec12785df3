import { randomBytes } from 'node:crypto'
import { SignJWT } from 'jose'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { cdpJwt, cdpSigningKey } from '../funding/coinbase-jwt.ts'
import { createCdpKey, type FakeCoinbase, startFakeCoinbase } from './fake-coinbase.ts'

// The fake refuses what Coinbase refuses: a test that passes against it has
// sent a JWT Coinbase would accept (docs.cdp.coinbase.com "JWT authentication").
const NOW = Date.UTC(2030, 0, 1)
const key = createCdpKey('ec')
let cb: FakeCoinbase
beforeAll(async () => {
  cb = await startFakeCoinbase({ key, now: () => NOW })
})
afterAll(() => cb?.close())

const TOKEN_BODY = JSON.stringify({ addresses: [{ address: '0xabc', blockchains: ['base'] }] })
const post = (jwt: string | null, path = '/onramp/v1/token') =>
  fetch(`${cb.url}${path}`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      ...(jwt ? { authorization: `Bearer ${jwt}` } : {}),
    },
    body: TOKEN_BODY,
  })
const tokenJwt = (now = NOW, k = key) =>
  cdpJwt(k, { method: 'POST', url: `${cb.url}/onramp/v1/token`, now })

describe('accepts', () => {
  it('a JWT of the key for this request: a session token', async () => {
    const res = await post(await tokenJwt())
    expect(res.status).toBe(200)
    expect(await res.json()).toEqual({ token: expect.any(String), channel_id: '' })
  })

  it('no transactions yet: an empty page', async () => {
    const path = '/onramp/v1/buy/user/ref123/transactions'
    const jwt = await cdpJwt(key, { method: 'GET', url: `${cb.url}${path}`, now: NOW })
    const res = await fetch(`${cb.url}${path}?pageSize=1`, {
      headers: { authorization: `Bearer ${jwt}` },
    })
    expect(await res.json()).toEqual({ transactions: [], next_page_key: '', total_count: '0' })
  })
})

describe('refuses with 401', () => {
  const expect401 = async (res: Response, message: RegExp) => {
    expect(res.status).toBe(401)
    const body = (await res.json()) as { code: number; message: string }
    expect(body.code).toBe(16)
    expect(body.message).toMatch(message)
  }

  it('no bearer token', async () => {
    await expect401(await post(null), /missing bearer/)
  })

  it('another key, or the right name with another private key', async () => {
    await expect401(await post(await tokenJwt(NOW, createCdpKey('ec'))), /unknown key/)
    const impostor = createCdpKey('ec', key.name)
    await expect401(await post(await tokenJwt(NOW, impostor)), /signature/)
  })

  it('expired or not yet valid (clock skew past the lifetime)', async () => {
    await expect401(await post(await tokenJwt(NOW - 121_000)), /exp/)
    await expect401(await post(await tokenJwt(NOW + 60_000)), /nbf/)
  })

  it('a JWT for another path (no replay across endpoints)', async () => {
    const other = await cdpJwt(key, {
      method: 'POST',
      url: `${cb.url}/onramp/v1/other`,
      now: NOW,
    })
    await expect401(await post(other), /uri must be POST/)
  })

  it('no nonce, or a lifetime over 120 s', async () => {
    const { key: signing } = cdpSigningKey(key.secret)
    const uri = `POST ${new URL(cb.url).host}/onramp/v1/token`
    const base = () =>
      new SignJWT({ uri })
        .setIssuer('cdp')
        .setSubject(key.name)
        .setNotBefore(NOW / 1000)
    const noNonce = await base()
      .setExpirationTime(NOW / 1000 + 120)
      .setProtectedHeader({ alg: 'ES256', kid: key.name })
      .sign(signing)
    await expect401(await post(noNonce), /no nonce/)
    const long = await base()
      .setExpirationTime(NOW / 1000 + 3600)
      .setProtectedHeader({ alg: 'ES256', kid: key.name, nonce: randomBytes(8).toString('hex') })
      .sign(signing)
    await expect401(await post(long), /120 s/)
  })
})
