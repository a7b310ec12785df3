import { createHash } from 'node:crypto'
import { calculateJwkThumbprint, decodeProtectedHeader, type JWK } from 'jose'
import { describe, expect, it } from 'vitest'
import { type DevicePublicJwk, jwkThumbprint, loadDeviceKey } from './device-key.ts'
import { MemoryDeviceKeyStore } from './device-key-store.ts'
import { APP_ID } from './harness.test-helper.ts'

// RFC 7638: the thumbprint a login binds the session to is SHA-256 over the
// key's required members, lexicographically ordered, without whitespace,
// base64url without padding. The server computes it with jose from the
// proof's header; the enclave's value must be the same bytes.

/** The P-256 public key of RFC 7517 Appendix A.1. */
const RFC7517_EC: DevicePublicJwk = {
  kty: 'EC',
  crv: 'P-256',
  x: 'MKBCTNIcKUSDii11ySs3526iDZ8AiTo7Tu6KPAqv7D4',
  y: '4Etl6SRW2YiLUrN5vfvVHuhp7x8PxltmWWlbbM4IFyM',
}

describe('device key thumbprint (RFC 7638)', () => {
  it('hashes exactly {"crv","kty","x","y"} in that order, without whitespace', async () => {
    // RFC 7638 §3.2: the required members of an EC key, as the RFC spells its input.
    const input = `{"crv":"P-256","kty":"EC","x":"${RFC7517_EC.x}","y":"${RFC7517_EC.y}"}`
    const expected = createHash('sha256').update(input).digest('base64url')
    expect(await jwkThumbprint(RFC7517_EC)).toBe(expected)
  })

  it('matches jose for the RFC 7517 key and for generated device keys', async () => {
    expect(await jwkThumbprint(RFC7517_EC)).toBe(
      await calculateJwkThumbprint(RFC7517_EC as JWK, 'sha256'),
    )
    for (let i = 0; i < 5; i++) {
      const key = await loadDeviceKey(new MemoryDeviceKeyStore(), APP_ID)
      expect(key.thumbprint).toMatch(/^[A-Za-z0-9_-]{43}$/)
      expect(key.thumbprint).toBe(await calculateJwkThumbprint(key.publicJwk as JWK, 'sha256'))
    }
  })

  it("is the thumbprint of the jwk in every proof's header", async () => {
    const key = await loadDeviceKey(new MemoryDeviceKeyStore(), APP_ID)
    const proof = await key.signProof({
      method: 'GET',
      url: 'https://auth.example.com/api/v1/users/me',
      accessToken: 't',
    })
    const { jwk } = decodeProtectedHeader(proof)
    expect(await calculateJwkThumbprint(jwk as JWK, 'sha256')).toBe(key.thumbprint)
  })
})
