import { randomBytes } from 'node:crypto'
import { delegationInfo } from '@latchkey/protocol'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { getTestInstance, type TestInstance } from '../test/instance.ts'
import { delegationKey, openSealedShare } from './key.ts'

// The enclave seals with WebCrypto, the server opens with node:crypto: a
// share sealed by WebCrypto exactly as the protocol describes (ECDH P-256
// deriveBits, HKDF-SHA256 with the ephemeral point as salt, AES-256-GCM with
// the tag appended) opens on the server, and only under its own binding.
let t: TestInstance
beforeAll(async () => {
  t = await getTestInstance()
})
afterAll(() => t.close())

async function webCryptoSeal(serverPublicKey: string, share: Uint8Array, info: string) {
  const subtle = globalThis.crypto.subtle
  const P256 = { name: 'ECDH', namedCurve: 'P-256' } as const
  const server = await subtle.importKey(
    'raw',
    Buffer.from(serverPublicKey, 'base64url'),
    P256,
    false,
    [],
  )
  const ephemeral = (await subtle.generateKey(P256, false, ['deriveBits'])) as CryptoKeyPair
  const ephemeralRaw = new Uint8Array(await subtle.exportKey('raw', ephemeral.publicKey))
  const shared = await subtle.deriveBits(
    { name: 'ECDH', public: server },
    ephemeral.privateKey,
    256,
  )
  const ikm = await subtle.importKey('raw', shared, 'HKDF', false, ['deriveKey'])
  const infoBytes = new TextEncoder().encode(info)
  const key = await subtle.deriveKey(
    { name: 'HKDF', hash: 'SHA-256', salt: ephemeralRaw, info: infoBytes },
    ikm,
    { name: 'AES-GCM', length: 256 },
    false,
    ['encrypt'],
  )
  const iv = new Uint8Array(randomBytes(12))
  const ciphertext = new Uint8Array(
    await subtle.encrypt(
      { name: 'AES-GCM', iv, additionalData: infoBytes },
      key,
      share as BufferSource,
    ),
  )
  return { ephemeralPublicKey: ephemeralRaw, iv, ciphertext }
}

it('opens a WebCrypto seal, and refuses it under another binding', async () => {
  const key = await delegationKey(t.server.services)
  const binding = {
    appId: t.app.id,
    userId: 'did:latchkey:abc',
    address: '0xAbC0000000000000000000000000000000000001',
  }
  const share = new Uint8Array(randomBytes(18))
  const sealed = await webCryptoSeal(
    key.publicKey,
    share,
    delegationInfo(binding.appId, binding.userId, binding.address),
  )
  expect(openSealedShare(key, sealed, binding)).toEqual(share)
  // The address as sent is bound, letter case included.
  expect(() =>
    openSealedShare(key, sealed, { ...binding, address: binding.address.toLowerCase() }),
  ).toThrow()
  expect(() => openSealedShare(key, sealed, { ...binding, userId: 'did:latchkey:abd' })).toThrow()
})
