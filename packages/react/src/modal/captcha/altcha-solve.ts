import { LatchkeyError } from '@latchkey/core'

/*
 * ALTCHA's proof of work, solved the way altcha-lib v2 checks it
 * (`deriveChallenge` / `verifySolution`, counter mode 'uint32'): the password
 * is the nonce's bytes followed by the counter as a big-endian uint32, the
 * salt is the salt's bytes, and PBKDF2 with the challenge's hash, cost and key
 * length must give a key whose hex starts with `keyPrefix`. WebCrypto does the
 * hashing, so no widget, worker or library is loaded (issue 23).
 */

/** The challenge `GET /api/v1/captcha/altcha/challenge` serves (altcha-lib v2 `Challenge`). */
export interface AltchaChallenge {
  parameters: {
    algorithm: string
    nonce: string
    salt: string
    cost: number
    /** Bytes; altcha-lib's default is 32. */
    keyLength?: number
    keyPrefix: string
    /** Seconds since the epoch, on the server's clock. */
    expiresAt?: number
    [name: string]: unknown
  }
  signature?: string
}

/** What the server's `payloadSchema` accepts as `solution`, as altcha-lib's solver reports it. */
export interface AltchaSolution {
  counter: number
  /** Lowercase hex of the whole derived key. */
  derivedKey: string
  /** Milliseconds the search took, one decimal. */
  time: number
}

/** altcha-lib's PBKDF2 algorithms and the WebCrypto hash each names. */
const HASHES: Readonly<Record<string, string>> = {
  'PBKDF2/SHA-256': 'SHA-256',
  'PBKDF2/SHA-384': 'SHA-384',
  'PBKDF2/SHA-512': 'SHA-512',
}

/**
 * Derivations in flight at once. WebCrypto runs them off the main thread, so
 * a batch keeps the browser's crypto threads busy while the page stays
 * responsive; between batches the search checks whether it should stop.
 */
export const ALTCHA_SEARCH_BATCH = 8

/** The largest counter a uint32 holds: altcha-lib refuses any above it. */
const MAX_COUNTER = 0xffffffff

const EVEN_HEX = /^(?:[0-9a-fA-F]{2})*$/
const isCount = (n: unknown): n is number => Number.isInteger(n) && (n as number) >= 1

function hexToBytes(hex: string): Uint8Array<ArrayBuffer> {
  const bytes = new Uint8Array(hex.length / 2)
  for (let i = 0; i < bytes.length; i++) bytes[i] = Number.parseInt(hex.slice(2 * i, 2 * i + 2), 16)
  return bytes
}

const toHex = (bytes: Uint8Array) =>
  Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('')

/** The payload the server decodes: base64 of the UTF-8 JSON, as the altcha widget submits it. */
function encodePayload(challenge: AltchaChallenge, solution: AltchaSolution): string {
  const json = JSON.stringify({
    challenge: { parameters: challenge.parameters, signature: challenge.signature },
    solution,
  })
  let binary = ''
  for (const byte of new TextEncoder().encode(json)) binary += String.fromCharCode(byte)
  return btoa(binary)
}

/**
 * Searches counters 0, 1, 2, … for the one whose PBKDF2 key starts with the
 * challenge's `keyPrefix` and returns the payload the Latchkey server's
 * ALTCHA check accepts (base64 JSON `{ challenge, solution }`). Rejects with
 * CAPTCHA_FAILED when `signal` aborts, when the challenge is not one it can
 * solve, or when WebCrypto is missing (pages that are not a secure context).
 *
 * @example
 * const challenge = await (await fetch(challengeUrl)).json()
 * const token = await solveAltchaChallenge(challenge, AbortSignal.timeout(60_000))
 */
export async function solveAltchaChallenge(
  challenge: AltchaChallenge,
  signal: AbortSignal,
): Promise<string> {
  const failed = () => new LatchkeyError('CAPTCHA_FAILED')
  const parameters = challenge?.parameters
  const hash = HASHES[String(parameters?.algorithm)]
  const keyLength = parameters?.keyLength ?? 32
  const subtle = globalThis.crypto?.subtle
  if (
    !hash ||
    !subtle ||
    typeof parameters.nonce !== 'string' ||
    !EVEN_HEX.test(parameters.nonce) ||
    typeof parameters.salt !== 'string' ||
    !EVEN_HEX.test(parameters.salt) ||
    typeof parameters.keyPrefix !== 'string' ||
    !/^[0-9a-fA-F]+$/.test(parameters.keyPrefix) ||
    !isCount(parameters.cost) ||
    !isCount(keyLength) ||
    parameters.keyPrefix.length > keyLength * 2
  )
    throw failed()
  const nonce = hexToBytes(parameters.nonce)
  const salt = hexToBytes(parameters.salt)
  // An odd-length prefix is compared as hex, like altcha-lib does; lowercase as its keys are.
  const prefix = parameters.keyPrefix.toLowerCase()
  const prefixBytes = Math.ceil(prefix.length / 2)

  const derive = async (counter: number) => {
    const password = new Uint8Array(nonce.length + 4)
    password.set(nonce)
    new DataView(password.buffer).setUint32(nonce.length, counter, false)
    const key = await subtle.importKey('raw', password, 'PBKDF2', false, ['deriveBits'])
    const bits = await subtle.deriveBits(
      { name: 'PBKDF2', hash, salt, iterations: parameters.cost },
      key,
      keyLength * 8,
    )
    return new Uint8Array(bits)
  }

  const start = performance.now()
  for (let first = 0; first <= MAX_COUNTER; first += ALTCHA_SEARCH_BATCH) {
    if (signal.aborted) throw failed()
    const count = Math.min(ALTCHA_SEARCH_BATCH, MAX_COUNTER - first + 1)
    let keys: Uint8Array[]
    try {
      keys = await Promise.all(Array.from({ length: count }, (_, i) => derive(first + i)))
    } catch {
      // WebCrypto refused the parameters (an unsupported key length, say).
      throw failed()
    }
    if (signal.aborted) throw failed()
    // The lowest matching counter, as a one-at-a-time search would find.
    const found = keys.findIndex((key) => toHex(key.subarray(0, prefixBytes)).startsWith(prefix))
    const key = keys[found]
    if (key)
      return encodePayload(challenge, {
        counter: first + found,
        derivedKey: toHex(key),
        time: Math.floor((performance.now() - start) * 10) / 10,
      })
  }
  throw failed()
}
