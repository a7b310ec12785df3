import { delegationInfo } from '@latchkey/protocol/schemas'
import { base64urlToBytes, bytesToBase64url } from '../encoding.ts'
import { PageError } from './errors.ts'

/** What {@link sealDelegatedShare} seals, and to whom. */
export interface SealDelegatedShareParameters {
  appId: string
  userId: string
  /** The wallet's address exactly as the delegate request names it (it is bound into the seal). */
  address: string
  /** The device share exactly as the enclave stores it. Not wiped here: the caller owns it. */
  deviceShare: Uint8Array
  /** base64url of the server's uncompressed P-256 delegation key (65 bytes). */
  serverPublicKey: string
  /** Default: globalThis.crypto.subtle. */
  subtle?: SubtleCrypto
  /** Default: globalThis.crypto.getRandomValues (the 12-byte nonce). */
  randomBytes?: (length: number) => Uint8Array
}

/** The sealed share as the delegate request carries it (base64url, no padding). */
export interface SealedDelegatedShare {
  ephemeral_public_key: string
  iv: string
  ciphertext: string
}

const P256 = { name: 'ECDH', namedCurve: 'P-256' } as const
const UNCOMPRESSED_P256_BYTES = 65

const defaultRandomBytes = (length: number) =>
  globalThis.crypto.getRandomValues(new Uint8Array(length))

/**
 * Seals a wallet's device share to the server's delegation key (ECIES with
 * WebCrypto only; the format is protocol `delegateWalletRequestSchema`'s,
 * docs/delegated-actions.md):
 *
 * - a fresh ephemeral ECDH P-256 pair, never stored;
 * - shared = ECDH(ephemeral private, server public): the 32-byte x coordinate;
 * - key = HKDF-SHA256(ikm = shared, salt = the 65 raw bytes of the ephemeral
 *   public key, info = UTF-8 `latchkey/delegation/v1|${appId}|${userId}|${address}`),
 *   an AES-256-GCM key that cannot be exported;
 * - ciphertext = AES-256-GCM(key, 12 random bytes, device share, additionalData = info).
 *
 * Binding app, user and address into both the key and the additional data
 * means a sealed share replayed for another user, app or wallet does not open.
 *
 * @example
 * const sealed = await sealDelegatedShare({ appId, userId, address, deviceShare, serverPublicKey })
 * await api.delegate(token, { address, chain_type, key_id, ...sealed })
 */
export async function sealDelegatedShare(
  params: SealDelegatedShareParameters,
): Promise<SealedDelegatedShare> {
  const subtle = params.subtle ?? globalThis.crypto.subtle
  const random = params.randomBytes ?? defaultRandomBytes
  let serverRaw: Uint8Array
  try {
    serverRaw = base64urlToBytes(params.serverPublicKey)
  } catch {
    throw new PageError('INTERNAL_ERROR', 'The delegation key is not a P-256 public key')
  }
  if (serverRaw.length !== UNCOMPRESSED_P256_BYTES || serverRaw[0] !== 4)
    throw new PageError('INTERNAL_ERROR', 'The delegation key is not a P-256 public key')
  let serverKey: CryptoKey
  try {
    serverKey = await subtle.importKey('raw', serverRaw as BufferSource, P256, false, [])
  } catch {
    // Not a point on the curve: refuse rather than seal to something nobody can open.
    throw new PageError('INTERNAL_ERROR', 'The delegation key is not a P-256 public key')
  }
  const ephemeral = (await subtle.generateKey(P256, false, ['deriveBits'])) as CryptoKeyPair
  const ephemeralRaw = new Uint8Array(await subtle.exportKey('raw', ephemeral.publicKey))
  const shared = new Uint8Array(
    await subtle.deriveBits({ name: 'ECDH', public: serverKey }, ephemeral.privateKey, 256),
  )
  const info = new TextEncoder().encode(delegationInfo(params.appId, params.userId, params.address))
  try {
    const ikm = await subtle.importKey('raw', shared as BufferSource, 'HKDF', false, ['deriveKey'])
    const key = await subtle.deriveKey(
      { name: 'HKDF', hash: 'SHA-256', salt: ephemeralRaw as BufferSource, info },
      ikm,
      { name: 'AES-GCM', length: 256 },
      false,
      ['encrypt'],
    )
    const iv = random(12)
    const ciphertext = new Uint8Array(
      await subtle.encrypt(
        { name: 'AES-GCM', iv: iv as BufferSource, additionalData: info },
        key,
        params.deviceShare as BufferSource,
      ),
    )
    return {
      ephemeral_public_key: bytesToBase64url(ephemeralRaw),
      iv: bytesToBase64url(iv),
      ciphertext: bytesToBase64url(ciphertext),
    }
  } finally {
    shared.fill(0)
  }
}
