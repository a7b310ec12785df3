import { ed25519 } from '@noble/curves/ed25519.js'
import { hmac } from '@noble/hashes/hmac.js'
import { sha512 } from '@noble/hashes/sha2.js'
import { utf8ToBytes } from '@noble/hashes/utils.js'
import { EnclaveError } from './errors.ts'

/** One node of a SLIP-10 ed25519 tree. `publicKey` is the raw 32-byte ed25519 key. */
export type Slip10Node = { privateKey: Uint8Array; chainCode: Uint8Array; publicKey: Uint8Array }

const HARDENED = 0x8000_0000
const MASTER_KEY = utf8ToBytes('ed25519 seed')

/**
 * Parses `m/44'/501'/0'/0'` (or `H` for hardened) into child indexes.
 * SLIP-10 ed25519 has hardened derivation only, so a non-hardened step is
 * refused with `INVALID_PATH`.
 */
export function parseHardenedPath(path: string): number[] {
  const steps = path.split('/')
  if (steps[0] !== 'm') throw new EnclaveError('INVALID_PATH', 'A path starts with m')
  return steps.slice(1).map((step) => {
    const match = /^(0|[1-9]\d{0,9})['H]$/.exec(step)
    const index = match ? Number(match[1]) : Number.NaN
    if (!(index < HARDENED)) {
      throw new EnclaveError(
        'INVALID_PATH',
        `SLIP-10 ed25519 needs hardened steps below 2^31: ${step}`,
      )
    }
    return index
  })
}

/**
 * SLIP-0010 ed25519 derivation: master = HMAC-SHA512(key = "ed25519 seed",
 * seed); each step I = HMAC-SHA512(key = chain code, 0x00 ‖ k ‖ ser32(i + 2^31)),
 * k = I[0:32], chain code = I[32:64].
 *
 * @example
 * ```ts
 * const node = deriveSlip10Ed25519(seed, "m/44'/501'/0'/0'")
 * node.publicKey // 32 bytes
 * ```
 */
export function deriveSlip10Ed25519(seed: Uint8Array, path: string): Slip10Node {
  if (!(seed instanceof Uint8Array) || seed.length < 16 || seed.length > 64) {
    throw new EnclaveError('INVALID_KEY', 'A SLIP-10 seed has 16 to 64 bytes')
  }
  const indexes = parseHardenedPath(path)
  let digest = hmac(sha512, MASTER_KEY, seed)
  for (const index of indexes) {
    const data = new Uint8Array(37)
    data.set(digest.subarray(0, 32), 1)
    new DataView(data.buffer).setUint32(33, index + HARDENED, false)
    const next = hmac(sha512, digest.subarray(32), data)
    data.fill(0)
    digest.fill(0)
    digest = next
  }
  const privateKey = digest.slice(0, 32)
  const chainCode = digest.slice(32)
  digest.fill(0)
  return { privateKey, chainCode, publicKey: ed25519.getPublicKey(privateKey) }
}
