import {
  createCipheriv,
  createDecipheriv,
  createHash,
  createPrivateKey,
  createPublicKey,
  diffieHellman,
  generateKeyPairSync,
  hkdfSync,
  type KeyObject,
  randomBytes,
} from 'node:crypto'
import { type DelegationKeyResponse, delegationInfo } from '@latchkey/protocol'
import type { Services } from '../http/context.ts'

/*
 * The server's delegation key (docs/delegated-actions.md "Sealing"): one P-256
 * key pair per database, made on first use. The private half is sealed under
 * the master key (purpose delegation-keys) and stored; any node reads the same
 * row (insert-or-read on the one `slot`), so a share sealed to it opens on
 * every node. The enclave seals the device share to the public half with
 * ECDH-ES + HKDF-SHA256 + AES-256-GCM; only a node holding the master key can
 * open it.
 */

const SLOT = 'current'
const PURPOSE = 'delegation-keys'
const AAD = JSON.stringify(['delegation_keys', SLOT, 'private_key'])

export interface DelegationKey {
  keyId: string
  /** base64url of the uncompressed point. */
  publicKey: string
  privateKey: KeyObject
}

/** The uncompressed point `0x04‖x‖y` of a P-256 public key. */
function rawPoint(key: KeyObject): Buffer {
  const jwk = key.export({ format: 'jwk' })
  return Buffer.concat([
    Buffer.from([4]),
    Buffer.from(jwk.x ?? '', 'base64url'),
    Buffer.from(jwk.y ?? '', 'base64url'),
  ])
}

/** An uncompressed P-256 point as a key object; throws when it is not a point of the curve. */
export function publicKeyOfPoint(point: Uint8Array): KeyObject {
  if (point.length !== 65 || point[0] !== 4) throw new Error('Not an uncompressed P-256 point')
  return createPublicKey({
    key: {
      kty: 'EC',
      crv: 'P-256',
      x: Buffer.from(point.subarray(1, 33)).toString('base64url'),
      y: Buffer.from(point.subarray(33)).toString('base64url'),
    },
    format: 'jwk',
  })
}

/** RFC 7638 thumbprint of the public key's JWK: the key id. */
function thumbprint(key: KeyObject): string {
  const { crv, kty, x, y } = key.export({ format: 'jwk' })
  const canonical = JSON.stringify({ crv, kty, x, y })
  return createHash('sha256').update(canonical).digest('base64url')
}

const cache = new WeakMap<object, Promise<DelegationKey>>()

/**
 * Reads the stored key, or makes and stores one when there is none; a node
 * that loses the race reads the winner's. Uncached ({@link delegationKey}
 * caches it per database).
 */
export async function loadOrCreateDelegationKey(
  services: Pick<Services, 'db' | 'secrets' | 'now'>,
): Promise<DelegationKey> {
  const read = () =>
    services.db
      .selectFrom('delegation_keys')
      .selectAll()
      .where('slot', '=', SLOT)
      .executeTakeFirst()
  let row = await read()
  if (!row) {
    const { publicKey, privateKey } = generateKeyPairSync('ec', { namedCurve: 'prime256v1' })
    const der = privateKey.export({ format: 'der', type: 'pkcs8' })
    await services.db
      .insertInto('delegation_keys')
      .values({
        slot: SLOT,
        key_id: thumbprint(publicKey),
        public_key: rawPoint(publicKey).toString('base64url'),
        private_key: services.secrets.encrypt(PURPOSE, AAD, der),
        created_at: services.now(),
      })
      // Another node made it first: keep theirs.
      .onConflict((oc) => oc.column('slot').doNothing())
      .execute()
    der.fill(0)
    row = await read()
    if (!row) throw new Error('The delegation key was not stored')
  }
  const der = services.secrets.decrypt(PURPOSE, AAD, row.private_key)
  try {
    const privateKey = createPrivateKey({ key: der, format: 'der', type: 'pkcs8' })
    return { keyId: row.key_id, publicKey: row.public_key, privateKey }
  } finally {
    der.fill(0)
  }
}

/**
 * The delegation key of this server's database, made on first use.
 *
 * @example
 * const { keyId, publicKey } = await delegationKey(services)
 */
export function delegationKey(services: Services): Promise<DelegationKey> {
  let pending = cache.get(services.db)
  if (!pending) {
    pending = loadOrCreateDelegationKey(services)
    cache.set(services.db, pending)
    pending.catch(() => cache.delete(services.db))
  }
  return pending
}

export async function delegationKeyResponse(services: Services): Promise<DelegationKeyResponse> {
  const key = await delegationKey(services)
  return { key_id: key.keyId, public_key: key.publicKey }
}

export interface SealedShare {
  ephemeralPublicKey: Uint8Array
  iv: Uint8Array
  ciphertext: Uint8Array
}

/** The AES-256-GCM key and additional data of a sealed delegated share (protocol's `delegationInfo`). */
function contentKey(
  shared: Uint8Array,
  ephemeralPublicKey: Uint8Array,
  info: string,
): { key: Buffer; aad: Buffer } {
  const aad = Buffer.from(info, 'utf8')
  const key = Buffer.from(hkdfSync('sha256', shared, ephemeralPublicKey, aad, 32))
  return { key, aad }
}

/**
 * Opens a device share the enclave sealed to the delegation key; throws on
 * any failure (not a point, wrong key, tampered, other app/user/address).
 */
export function openSealedShare(
  key: DelegationKey,
  sealed: SealedShare,
  binding: { appId: string; userId: string; address: string },
): Uint8Array {
  const shared = diffieHellman({
    privateKey: key.privateKey,
    publicKey: publicKeyOfPoint(sealed.ephemeralPublicKey),
  })
  const info = delegationInfo(binding.appId, binding.userId, binding.address)
  const { key: aesKey, aad } = contentKey(shared, sealed.ephemeralPublicKey, info)
  shared.fill(0)
  try {
    if (sealed.iv.length !== 12 || sealed.ciphertext.length < 17) throw new Error('Malformed')
    const body = sealed.ciphertext.subarray(0, sealed.ciphertext.length - 16)
    const tag = sealed.ciphertext.subarray(sealed.ciphertext.length - 16)
    const decipher = createDecipheriv('aes-256-gcm', aesKey, sealed.iv)
    decipher.setAAD(aad)
    decipher.setAuthTag(tag)
    return new Uint8Array(Buffer.concat([decipher.update(body), decipher.final()]))
  } finally {
    aesKey.fill(0)
  }
}

/**
 * Seals a device share to a delegation public key exactly as the enclave does
 * (tests and tools; the enclave uses WebCrypto).
 */
export function sealShareTo(
  publicKeyB64: string,
  share: Uint8Array,
  binding: { appId: string; userId: string; address: string },
): SealedShare {
  const { publicKey, privateKey } = generateKeyPairSync('ec', { namedCurve: 'prime256v1' })
  const ephemeralPublicKey = rawPoint(publicKey)
  const shared = diffieHellman({
    privateKey,
    publicKey: publicKeyOfPoint(Buffer.from(publicKeyB64, 'base64url')),
  })
  const info = delegationInfo(binding.appId, binding.userId, binding.address)
  const { key, aad } = contentKey(shared, ephemeralPublicKey, info)
  const iv = randomBytes(12)
  const cipher = createCipheriv('aes-256-gcm', key, iv)
  cipher.setAAD(aad)
  const ciphertext = Buffer.concat([cipher.update(share), cipher.final(), cipher.getAuthTag()])
  return { ephemeralPublicKey, iv, ciphertext }
}
