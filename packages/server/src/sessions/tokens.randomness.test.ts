import crypto from 'node:crypto'
import { syncBuiltinESMExports } from 'node:module'
import { APP_ID_LENGTH, routes } from '@latchkey/protocol'
import { afterAll, afterEach, beforeAll, expect, it, vi } from 'vitest'
import { newPasskeyChallenge } from '../auth/passkey/challenges.ts'
import { newSignInNonce } from '../auth/siwe/nonces.ts'
import { newAppId, newId, newSecret, newUserId, RANDOM_POOL_BYTES } from '../ids.ts'
import { getTestInstance, type TestInstance } from '../test/instance.ts'
import { chiSquareUniform } from '../test/randomness.ts'

// Security bar 35 (OWASP ASVS 7.2.3): tokens, nonces and credentials carry
// at least 128 bits of CSPRNG output. Refresh tokens, app secrets and
// transfer nonces come from `newSecret` (256 bits); session, key and row ids
// from `newId` (128 bits); SIWE/SIWS nonces from `newSignInNonce` (128 bits);
// passkey challenges from `newPasskeyChallenge` (256 bits); app and user ids
// from `randomAlphanumeric` (25 × log2 36 ≈ 129 bits).
//
// Statistical bounds: a correct CSPRNG exceeds each with probability < 1e-10,
// under 1e-9 for the whole file, so the tests do not flake.

const N = 3_000

let t: TestInstance
beforeAll(async () => {
  t = await getTestInstance()
})
afterAll(() => t.close())
afterEach(() => {
  vi.restoreAllMocks()
  // ESM named exports of a built-in follow its CommonJS object only when synced.
  syncBuiltinESMExports()
})

/** Decodes a base64url or hex token; an empty buffer when it is not the canonical encoding. */
function bytesOf(token: string, encoding: 'base64url' | 'hex'): Buffer {
  const bytes = Buffer.from(token, encoding)
  return bytes.toString(encoding) === token ? bytes : Buffer.alloc(0)
}

/** χ² of byte values over many tokens: 255 degrees of freedom, P(χ² > 440) ≈ 5e-12. */
function expectUniformBytes(tokens: readonly Buffer[]) {
  const counts = new Array<number>(256).fill(0)
  for (const bytes of tokens) for (const byte of bytes) counts[byte] = (counts[byte] ?? 0) + 1
  expect(chiSquareUniform(counts)).toBeLessThan(440)
}

// `pooled`: drawn from ids.ts's pool, which node:crypto's randomFillSync refills 4 KB at a time.
const generators = [
  {
    name: 'newSecret (refresh tokens, app secrets)',
    make: newSecret,
    enc: 'base64url',
    bytes: 32,
    pooled: true,
  },
  { name: 'newId (session and key ids)', make: newId, enc: 'base64url', bytes: 16, pooled: true },
  {
    name: 'newSignInNonce (SIWE/SIWS nonces)',
    make: newSignInNonce,
    enc: 'hex',
    bytes: 16,
    pooled: false,
  },
  {
    name: 'newPasskeyChallenge',
    make: newPasskeyChallenge,
    enc: 'base64url',
    bytes: 32,
    pooled: false,
  },
] as const

for (const { name, make, enc, bytes, pooled } of generators) {
  const source = pooled ? 'randomFillSync (pooled)' : 'randomBytes'
  it(`${name}: ${bytes * 8} bits from node:crypto ${source}, all distinct, uniform bytes`, () => {
    expect(bytes * 8).toBeGreaterThanOrEqual(128)
    const draw = vi.spyOn(crypto, pooled ? 'randomFillSync' : 'randomBytes')
    syncBuiltinESMExports()
    if (pooled) {
      // A pool's worth of draws refills it at least once, with a full pool's length.
      for (let i = 0; i <= RANDOM_POOL_BYTES / bytes; i++) make()
      expect(draw).toHaveBeenCalled()
      expect((draw.mock.calls[0]?.[0] as Buffer | undefined)?.length).toBe(RANDOM_POOL_BYTES)
    } else {
      make()
      expect(draw).toHaveBeenCalledWith(bytes)
    }
    vi.restoreAllMocks()
    syncBuiltinESMExports()

    const tokens = Array.from({ length: N }, make)
    // 3,000 draws of ≥ 128 bits: a collision has probability < 3e3² / 2^129 ≈ 1.4e-32.
    expect(new Set(tokens).size).toBe(N)
    const decoded = tokens.map((token) => bytesOf(token, enc))
    expect(decoded.filter((b) => b.length !== bytes)).toEqual([])
    expectUniformBytes(decoded)
  })
}

it('app and user ids: 25 CSPRNG alphanumerics (≈ 129 bits), uniform characters', () => {
  expect(APP_ID_LENGTH * Math.log2(36)).toBeGreaterThanOrEqual(128)
  const randomInt = vi.spyOn(crypto, 'randomInt')
  syncBuiltinESMExports()
  newAppId()
  // randomInt(36) rejects out-of-range draws: no modulo bias over the alphabet.
  expect(randomInt).toHaveBeenCalledTimes(APP_ID_LENGTH)
  expect(randomInt).toHaveBeenCalledWith(36)
  vi.restoreAllMocks()
  syncBuiltinESMExports()

  const ids = Array.from({ length: N }, newAppId)
  expect(new Set(ids).size).toBe(N)
  expect(ids.filter((id) => !/^[a-z0-9]{25}$/.test(id))).toEqual([])
  expect(newUserId()).toMatch(/^did:latchkey:[a-z0-9]{25}$/)
  const counts = new Map<string, number>()
  for (const id of ids) for (const c of id) counts.set(c, (counts.get(c) ?? 0) + 1)
  expect(counts.size).toBe(36)
  // 35 degrees of freedom: P(χ² > 123) ≈ 1e-11.
  expect(chiSquareUniform([...counts.values()])).toBeLessThan(123)
})

it('refresh tokens issued at login and on rotation carry 256 random bits', async () => {
  const login = await t.login('randomness@example.com')
  const first = login.refresh_token ?? ''
  expect(bytesOf(first, 'base64url')).toHaveLength(32)
  const rotated = await t.request(routes.sessionRefresh, { body: { refresh_token: first } })
  expect(rotated.status).toBe(200)
  const second: string = rotated.body.refresh_token
  expect(bytesOf(second, 'base64url')).toHaveLength(32)
  expect(second).not.toBe(first)
  // Session ids (the access token's `sid`) carry 128 bits.
  const payload = (login.token ?? '').split('.')[1] ?? ''
  const { sid } = JSON.parse(Buffer.from(payload, 'base64url').toString()) as { sid: string }
  expect(bytesOf(sid, 'base64url')).toHaveLength(16)
})
