import { decodeProtectedHeader, jwtVerify } from 'jose'
import { describe, expect, it } from 'vitest'
import { createCdpKey } from '../test/fake-coinbase.ts'
import { CDP_JWT_LIFETIME_S, cdpJwt } from './coinbase-jwt.ts'

// The CDP request JWT (docs.cdp.coinbase.com "JWT authentication"), for both
// kinds of secret API key the portal issues.
const NOW = Date.UTC(2030, 0, 1)

describe.each(['ec', 'ed25519'] as const)('a %s key', (kind) => {
  const key = createCdpKey(kind)

  it('signs kid, nonce, iss cdp, sub, nbf/exp 120 s and the uri of one request', async () => {
    const jwt = await cdpJwt(key, {
      method: 'POST',
      url: 'https://api.developer.coinbase.com/onramp/v1/token',
      now: NOW,
    })
    const header = decodeProtectedHeader(jwt)
    expect(header).toMatchObject({ alg: key.alg, kid: key.name, typ: 'JWT' })
    expect(header.nonce).toMatch(/^[0-9a-f]{32}$/)
    const { payload } = await jwtVerify(jwt, key.publicKey, {
      algorithms: [key.alg],
      currentDate: new Date(NOW),
    })
    expect(payload).toEqual({
      iss: 'cdp',
      sub: key.name,
      nbf: NOW / 1000,
      exp: NOW / 1000 + CDP_JWT_LIFETIME_S,
      uri: 'POST api.developer.coinbase.com/onramp/v1/token',
    })
  })

  it('a fresh nonce each time; the uri carries the host with its port and no query', async () => {
    const url = 'http://127.0.0.1:4010/onramp/v1/buy/user/abc/transactions'
    const [a, b] = await Promise.all([
      cdpJwt(key, { method: 'GET', url, now: NOW }),
      cdpJwt(key, { method: 'GET', url, now: NOW }),
    ])
    expect(decodeProtectedHeader(a).nonce).not.toBe(decodeProtectedHeader(b).nonce)
    const { payload } = await jwtVerify(a, key.publicKey, { currentDate: new Date(NOW) })
    expect(payload.uri).toBe('GET 127.0.0.1:4010/onramp/v1/buy/user/abc/transactions')
  })

  it('another key does not verify it', async () => {
    const jwt = await cdpJwt(key, { method: 'GET', url: 'https://x.example/a', now: NOW })
    const other = createCdpKey(kind)
    await expect(jwtVerify(jwt, other.publicKey, { currentDate: new Date(NOW) })).rejects.toThrow()
  })
})
