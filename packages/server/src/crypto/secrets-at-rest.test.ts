import { randomBytes } from 'node:crypto'
import { routes } from '@latchkey/protocol'
import { describe, expect, it } from 'vitest'
import { silentLogger } from '../config.ts'
import { createLatchkeyServer } from '../server.ts'
import { getTestInstance } from '../test/instance.ts'
import { parseMasterKey, SecretBox } from './secrets.ts'

// Security bar 45: secrets at rest use AES-GCM under keys derived from the
// master key; a tampered ciphertext fails to decrypt.
const box = new SecretBox(randomBytes(32))

describe('SecretBox', () => {
  it('round-trips and never stores the plaintext', () => {
    const sealed = box.encrypt('auth-shares', 'wallet-1', 'share-bytes')
    expect(sealed).not.toContain('share-bytes')
    expect(box.decrypt('auth-shares', 'wallet-1', sealed).toString()).toBe('share-bytes')
    expect(box.encrypt('auth-shares', 'wallet-1', 'share-bytes')).not.toBe(sealed) // fresh IV
  })

  it('fails on a flipped bit in the ciphertext, the tag or the IV', () => {
    const sealed = box.encrypt('auth-shares', 'wallet-1', 'share-bytes')
    const parts = sealed.split('.')
    for (const index of [1, 2, 3]) {
      const bytes = Buffer.from(parts[index] ?? '', 'base64url')
      bytes[0] = (bytes[0] ?? 0) ^ 1
      const tampered = parts
        .map((p, i) => (i === index ? bytes.toString('base64url') : p))
        .join('.')
      expect(() => box.decrypt('auth-shares', 'wallet-1', tampered)).toThrow()
    }
  })

  it('fails for another record id (AAD) or another purpose (HKDF info)', () => {
    const sealed = box.encrypt('auth-shares', 'wallet-1', 'share-bytes')
    expect(() => box.decrypt('auth-shares', 'wallet-2', sealed)).toThrow()
    expect(() => box.decrypt('recovery-keys', 'wallet-1', sealed)).toThrow()
  })

  it('fails under another master key', () => {
    const sealed = box.encrypt('auth-shares', 'wallet-1', 'share-bytes')
    expect(() =>
      new SecretBox(randomBytes(32)).decrypt('auth-shares', 'wallet-1', sealed),
    ).toThrow()
  })

  it('accepts 32-byte master keys as hex or base64 only', () => {
    const key = randomBytes(32)
    expect(parseMasterKey(key.toString('hex'))).toEqual(key)
    expect(parseMasterKey(key.toString('base64'))).toEqual(key)
    expect(() => parseMasterKey('short')).toThrow()
    expect(() => parseMasterKey(randomBytes(16).toString('hex'))).toThrow()
  })
})

describe('signing keys at rest', () => {
  it('stores the private key sealed and publishes only public halves', async () => {
    const t = await getTestInstance()
    try {
      const row = await t.db.selectFrom('signing_keys').selectAll().executeTakeFirstOrThrow()
      expect(row.private_jwk).toMatch(/^v1\./)
      expect(row.private_jwk).not.toContain('"d"')
      expect(JSON.parse(row.public_jwk).d).toBeUndefined()
      const jwks = await t.request('/.well-known/jwks.json', { appId: null })
      expect(JSON.stringify(jwks.body)).not.toContain('"d"')
      expect(jwks.body.keys[0]).toMatchObject({
        kid: row.kid,
        alg: 'ES256',
        use: 'sig',
        kty: 'EC',
        crv: 'P-256',
      })
    } finally {
      await t.close()
    }
  })

  it('a tampered sealed key, or another master key, fails to load instead of being used', async () => {
    const masterKey = randomBytes(32)
    const t = await getTestInstance({ masterKey })
    try {
      const options = {
        db: t.db,
        masterKey,
        logger: silentLogger,
        publicUrl: 'http://latchkey.test',
      }
      await expect(
        createLatchkeyServer({ ...options, masterKey: randomBytes(32) }),
      ).rejects.toThrow()
      const row = await t.db.selectFrom('signing_keys').selectAll().executeTakeFirstOrThrow()
      const parts = row.private_jwk.split('.')
      const data = Buffer.from(parts[2] ?? '', 'base64url')
      data[3] = (data[3] ?? 0) ^ 0xff
      parts[2] = data.toString('base64url')
      await t.db
        .updateTable('signing_keys')
        .set({ private_jwk: parts.join('.') })
        .where('kid', '=', row.kid)
        .execute()
      await expect(createLatchkeyServer(options)).rejects.toThrow()
    } finally {
      await t.close()
    }
  })

  it('a login works end to end with the sealed key', async () => {
    const t = await getTestInstance()
    try {
      const login = await t.login('sealed@example.com')
      expect((await t.request(routes.usersMe, { token: login.token ?? '' })).status).toBe(200)
    } finally {
      await t.close()
    }
  })
})
