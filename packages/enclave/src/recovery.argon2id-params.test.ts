import { passwordKdfSchema } from '@latchkey/protocol'
import { argon2id } from '@noble/hashes/argon2.js'
import { hex } from '@scure/base'
import { describe, expect, it } from 'vitest'
import { base64urlToBytes } from './encoding.ts'
import {
  derivePasswordKey,
  newPasswordKdf,
  openRecoveryShare,
  PASSWORD_KDF_MINIMUM,
  type PasswordKdf,
  sealRecoveryShare,
} from './recovery.ts'

// Security bars 9 and 10: argon2id with at least m = 19 MiB, t = 2, p = 1 and a
// ≥ 128-bit random salt; passwords used as given (no trimming, no truncation).

// 70 UTF-16 code units: leading and trailing spaces, Latin-1, Greek and CJK.
const LONG_PASSWORD =
  ' Correct horse battery staple, \u00fcn\u00efc\u00f6d\u00e9 \u03a9\u03bc\u03ad\u03b3\u03b1 \u5bc6\u7801, two trailing spaces  '
// The salt 00 01 02 … 0f.
const FIXED_KDF: PasswordKdf = {
  algorithm: 'argon2id',
  salt: 'AAECAwQFBgcICQoLDA0ODw',
  memory_kib: 19_456,
  iterations: 2,
  parallelism: 1,
}
// Computed with the reference implementation (libargon2 1.0, `argon2id_hash_raw(2,
// 19456, 1, utf8(LONG_PASSWORD), salt, 32)`), not with the library under test.
const LONG_PASSWORD_KEY = 'c48d71da83c107fb760070b2aeaf9c9ce737cb4a3305185b9fca016beb92eeca'

const invalidKdf = expect.objectContaining({ code: 'INVALID_KDF' })

describe('argon2id parameters (security bar 9)', () => {
  it('newPasswordKdf meets the bar and the protocol schema', () => {
    const kdf = newPasswordKdf()
    expect(kdf.algorithm).toBe('argon2id')
    expect(kdf.memory_kib).toBeGreaterThanOrEqual(19 * 1024)
    expect(kdf.iterations).toBeGreaterThanOrEqual(2)
    expect(kdf.parallelism).toBeGreaterThanOrEqual(1)
    expect(base64urlToBytes(kdf.salt).length).toBeGreaterThanOrEqual(16)
    expect(passwordKdfSchema.parse(kdf)).toEqual(kdf)
    expect(PASSWORD_KDF_MINIMUM).toEqual({
      memory_kib: 19_456,
      iterations: 2,
      parallelism: 1,
      saltBytes: 16,
    })
  })

  it('draws a fresh random salt every time', () => {
    const salts = new Set(Array.from({ length: 100 }, () => newPasswordKdf().salt))
    expect(salts.size).toBe(100)
  })

  it.each<[string, Partial<PasswordKdf> | Record<string, unknown>]>([
    ['argon2i', { algorithm: 'argon2i' }],
    ['less memory', { memory_kib: 19_455 }],
    ['one iteration', { iterations: 1 }],
    ['no parallelism', { parallelism: 0 }],
    ['fractional memory', { memory_kib: 19_456.5 }],
    ['a 15-byte salt', { salt: 'AAECAwQFBgcICQoLDA0O' }],
    ['a salt that is not base64url', { salt: 'AAECAwQFBgcICQoLDA0ODw==' }],
    ['more than 1 GiB', { memory_kib: 1_048_577 }],
    ['more than 20 iterations', { iterations: 21 }],
  ])('refuses %s before any work is done', async (_, change) => {
    await expect(
      derivePasswordKey('password', { ...FIXED_KDF, ...change } as PasswordKdf),
    ).rejects.toThrow(invalidKdf)
  })

  it('refuses an empty password and lone surrogates', async () => {
    for (const password of ['', 'abc\ud800def']) {
      await expect(derivePasswordKey(password, FIXED_KDF)).rejects.toThrow(
        expect.objectContaining({ code: 'INVALID_PASSWORD' }),
      )
    }
  })

  it('the argon2id library matches the RFC 9106 §5.3 test vector', () => {
    const tag = argon2id(new Uint8Array(32).fill(1), new Uint8Array(16).fill(2), {
      t: 3,
      m: 32,
      p: 4,
      dkLen: 32,
      key: new Uint8Array(8).fill(3),
      personalization: new Uint8Array(12).fill(4),
    })
    expect(hex.encode(tag)).toBe('0d640df58d78766c08c037a34a8b53c9d01ef0452d75b65eb52520e96b01e659')
  })
})

// A derivation with the production parameters costs a few hundred ms of CPU: the tests
// below share three, each run once, and check each against the independent reference.
const once = <T>(run: () => Promise<T>) => {
  let result: Promise<T> | undefined
  return () => {
    result ??= run()
    return result
  }
}
const referenceKey = once(() => derivePasswordKey(LONG_PASSWORD, FIXED_KDF))
// The same password typed as decomposed characters (NFD): ü as u + ◌̈, έ as ε + ◌́.
const DECOMPOSED_PASSWORD = LONG_PASSWORD.normalize('NFD')
const decomposedKey = once(() => derivePasswordKey(DECOMPOSED_PASSWORD, FIXED_KDF))
const OTHER_SALT_KDF: PasswordKdf = { ...FIXED_KDF, salt: 'Dw4NDAsKCQgHBgUEAwIBAA' }
const otherSaltKey = once(() => derivePasswordKey(LONG_PASSWORD, OTHER_SALT_KDF))

describe('password recovery key (security bar 10)', () => {
  it('a 70-character password with spaces and unicode derives the reference key, untrimmed', async () => {
    expect(LONG_PASSWORD.length).toBe(70)
    // The reference is over all 70 characters as given: a trimmed or truncated
    // password, or other parameters, would derive another key.
    expect(hex.encode(await referenceKey())).toBe(LONG_PASSWORD_KEY)
  })

  it('same password and salt give the same key; another salt gives another key', async () => {
    expect(OTHER_SALT_KDF.salt).not.toBe(FIXED_KDF.salt)
    const first = await referenceKey()
    const again = await decomposedKey()
    const otherSalt = await otherSaltKey()
    expect(first.length).toBe(32)
    expect(again).toEqual(first)
    expect(otherSalt.length).toBe(32)
    expect(otherSalt).not.toEqual(first)
  })

  it('seals with the password key; only the same password opens it', async () => {
    const deviceShare = crypto.getRandomValues(new Uint8Array(18))
    const entropyId = '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266'
    const ciphertext = await sealRecoveryShare(deviceShare, await referenceKey(), entropyId)
    // Another derivation of the same password (typed decomposed) opens it.
    expect(await openRecoveryShare(ciphertext, await decomposedKey(), entropyId)).toEqual(
      deviceShare,
    )
    // The key of that password under another salt does not.
    await expect(openRecoveryShare(ciphertext, await otherSaltKey(), entropyId)).rejects.toThrow(
      expect.objectContaining({ code: 'DECRYPTION_FAILED' }),
    )
  })
})

describe('password normalization (NFKC)', () => {
  it('derives the same key for composed and decomposed forms of a password', async () => {
    expect(DECOMPOSED_PASSWORD).not.toBe(LONG_PASSWORD)
    expect(DECOMPOSED_PASSWORD.normalize('NFKC')).toBe(LONG_PASSWORD)
    expect(hex.encode(await decomposedKey())).toBe(LONG_PASSWORD_KEY)
  })
})
