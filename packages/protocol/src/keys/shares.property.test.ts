import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { entropyIdOf } from './derive.ts'
import { encodeSecret, type WalletSecret } from './secret.ts'
import { combineShares, reconstructAndVerify, splitSecret } from './shares.ts'

// Security bar 40: no single share reveals anything; the right pair rebuilds the key.

const secretArb: fc.Arbitrary<WalletSecret> = fc.oneof(
  fc
    .uint8Array({ minLength: 16, maxLength: 16 })
    .map((payload) => ({ kind: 'hd' as const, payload })),
  fc
    .uint8Array({ minLength: 32, maxLength: 32 })
    .filter((p) => p.some((b) => b !== 0) && p[0] !== 0xff) // a valid secp256k1 scalar
    .map((payload) => ({ kind: 'ethereum-key' as const, payload })),
  fc
    .uint8Array({ minLength: 32, maxLength: 32 })
    .map((payload) => ({ kind: 'solana-key' as const, payload })),
)

/** Resolves to the rebuilt secret, or undefined when combining throws. */
async function tryCombine(a: Uint8Array, b: Uint8Array): Promise<WalletSecret | undefined> {
  return combineShares(a, b).catch(() => undefined)
}

const sameSecret = (a: WalletSecret | undefined, b: WalletSecret) =>
  a !== undefined && a.kind === b.kind && a.payload.every((byte, i) => byte === b.payload[i])

// GF(2^8) with the AES polynomial x^8 + x^4 + x^3 + x + 1, the field shamir-secret-sharing uses.
function gfMul(a: number, b: number): number {
  let product = 0
  for (let i = 0; i < 8; i++) {
    if (b & 1) product ^= a
    const carry = a & 0x80
    a = (a << 1) & 0xff
    if (carry) a ^= 0x1b
    b >>= 1
  }
  return product
}
function gfInv(a: number): number {
  let result = 1
  for (let i = 0; i < 254; i++) result = gfMul(result, a) // a^254 = a^-1
  return result
}

describe('2-of-2 shares (security bar 40)', () => {
  it('the right pair rebuilds the secret', async () => {
    await fc.assert(
      fc.asyncProperty(secretArb, async (secret) => {
        const { deviceShare, authShare } = await splitSecret(secret)
        expect(await combineShares(deviceShare, authShare)).toEqual(secret)
      }),
      { numRuns: 200 },
    )
  })

  it('a single share does not yield the secret', async () => {
    await fc.assert(
      fc.asyncProperty(secretArb, async (secret) => {
        const { deviceShare, authShare } = await splitSecret(secret)
        for (const share of [deviceShare, authShare]) {
          expect(sameSecret(await tryCombine(share, share), secret)).toBe(false)
          expect(sameSecret(await tryCombine(share, share.slice(0, -1)), secret)).toBe(false)
        }
        // The share's bytes are not the secret's bytes.
        const encoded = encodeSecret(secret)
        expect(deviceShare.subarray(0, -1)).not.toEqual(encoded)
        expect(authShare.subarray(0, -1)).not.toEqual(encoded)
      }),
      { numRuns: 100 },
    )
  })

  it('a single share is consistent with every other secret of its length', async () => {
    // Perfect secrecy, shown constructively: for any candidate secret there is a
    // partner share that makes the device share combine into exactly that candidate.
    await fc.assert(
      fc.asyncProperty(secretArb, secretArb, async (secret, candidate) => {
        fc.pre(candidate.payload.length === secret.payload.length)
        const { deviceShare } = await splitSecret(secret)
        const target = encodeSecret(candidate)
        const n = target.length
        const xDevice = deviceShare[n] as number
        const xForged = xDevice === 1 ? 2 : 1
        const forged = new Uint8Array(n + 1)
        forged[n] = xForged
        for (let i = 0; i < n; i++) {
          // y = s + a·x  ⇒  a = (y_device − s') / x_device, y_forged = s' + a·x_forged
          const slope = gfMul((deviceShare[i] as number) ^ (target[i] as number), gfInv(xDevice))
          forged[i] = (target[i] as number) ^ gfMul(slope, xForged)
        }
        expect(await combineShares(deviceShare, forged)).toEqual(candidate)
      }),
      { numRuns: 100 },
    )
  })

  it('a pair with one share swapped from another split does not yield the secret', async () => {
    await fc.assert(
      fc.asyncProperty(secretArb, secretArb, async (secret, other) => {
        const first = await splitSecret(secret)
        const ofOther = await splitSecret(other)
        const again = await splitSecret(secret) // even another split of the same secret
        for (const [a, b] of [
          [first.deviceShare, ofOther.authShare],
          [ofOther.deviceShare, first.authShare],
          [first.deviceShare, again.authShare],
          [again.deviceShare, first.authShare],
        ] as const) {
          expect(sameSecret(await tryCombine(a, b), secret)).toBe(false)
        }
      }),
      { numRuns: 200 },
    )
  })

  it('reconstructAndVerify never returns a secret for a swapped pair or a wrong entropy id', async () => {
    await fc.assert(
      fc.asyncProperty(secretArb, secretArb, async (secret, other) => {
        const entropyId = entropyIdOf(secret)
        const otherId = entropyIdOf(other)
        fc.pre(entropyId !== otherId)
        const { deviceShare, authShare } = await splitSecret(secret)
        const swapped = await splitSecret(other)
        await expect(
          reconstructAndVerify(deviceShare, swapped.authShare, entropyId),
        ).rejects.toThrow(expect.objectContaining({ name: 'EnclaveError' }))
        await expect(reconstructAndVerify(deviceShare, authShare, otherId)).rejects.toThrow(
          expect.objectContaining({ code: 'ENTROPY_ID_MISMATCH' }),
        )
        expect(await reconstructAndVerify(deviceShare, authShare, entropyId)).toEqual(secret)
      }),
      { numRuns: 30 },
    )
  })
})
