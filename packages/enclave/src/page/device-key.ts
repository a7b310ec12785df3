import { ENCLAVE_PROOF_TYP } from '@latchkey/protocol/constants'
import { bytesToBase64url } from '../encoding.ts'
import {
  type DeviceKeyRecord,
  type DeviceKeyStore,
  MemoryDeviceKeyStore,
} from './device-key-store.ts'

/** The public members of a P-256 JWK (RFC 7518 §6.2.1), the only ones that leave the enclave. */
export interface DevicePublicJwk {
  kty: 'EC'
  crv: 'P-256'
  x: string
  y: string
}

/** What one request's proof covers. */
export interface ProofInput {
  method: string
  /** The request's full URL; its query and fragment are not part of the proof. */
  url: string
  /** The bearer token the request carries (the proof's `ath`). */
  accessToken: string
}

/** Signs one server request's proof. */
export type ProofSigner = (input: ProofInput) => Promise<string>

/**
 * The enclave's device key, loaded: its public JWK, its RFC 7638 thumbprint
 * (what a login binds the session to) and proofs signed with its private
 * key, which is never exported.
 */
export interface DeviceKey {
  readonly appId: string
  readonly publicJwk: DevicePublicJwk
  readonly thumbprint: string
  signProof: ProofSigner
}

export interface LoadDeviceKeyOptions {
  /** Default: globalThis.crypto.subtle. */
  subtle?: SubtleCrypto
  /** Default: Date.now. */
  now?: () => number
}

const P256 = { name: 'ECDSA', namedCurve: 'P-256' } as const
const ES256 = { name: 'ECDSA', hash: 'SHA-256' } as const
const utf8 = (text: string) => new TextEncoder().encode(text)
const b64uJson = (value: unknown) => bytesToBase64url(utf8(JSON.stringify(value)))

/** One load per store and app: concurrent first loads share it and so make one key. */
const loading = new WeakMap<DeviceKeyStore, Map<string, Promise<DeviceKey>>>()

/**
 * Loads the app's device key from `store`, or makes one on first use: a
 * WebCrypto ECDSA P-256 pair generated with `extractable: false` (the public
 * half is always exportable; the private half never is). Concurrent calls
 * share one load; a failed load is retried on the next call.
 *
 * @example
 * const key = await loadDeviceKey(new IndexedDbDeviceKeyStore(), appId)
 * headers.dpop = await key.signProof({ method: 'POST', url, accessToken })
 */
export function loadDeviceKey(
  store: DeviceKeyStore,
  appId: string,
  options: LoadDeviceKeyOptions = {},
): Promise<DeviceKey> {
  const perApp = loading.get(store) ?? new Map<string, Promise<DeviceKey>>()
  loading.set(store, perApp)
  const current = perApp.get(appId)
  if (current) return current
  const load = loadOrCreate(store, appId, options)
  perApp.set(appId, load)
  load.catch(() => {
    if (perApp.get(appId) === load) perApp.delete(appId)
  })
  return load
}

async function loadOrCreate(
  store: DeviceKeyStore,
  appId: string,
  options: LoadDeviceKeyOptions,
): Promise<DeviceKey> {
  const subtle = options.subtle ?? globalThis.crypto.subtle
  let record = await store.get(appId)
  if (!record) {
    const pair = (await subtle.generateKey(P256, false, ['sign', 'verify'])) as CryptoKeyPair
    const fresh: DeviceKeyRecord = {
      appId,
      privateKey: pair.privateKey,
      publicKey: pair.publicKey,
      createdAt: (options.now ?? Date.now)(),
    }
    record = await store.putIfAbsent(fresh)
  }
  return deviceKeyOf(record, subtle, options.now ?? Date.now)
}

/** The RFC 7638 §3.2 members of an EC key, in lexicographic order. */
function thumbprintInput(jwk: DevicePublicJwk): string {
  return JSON.stringify({ crv: jwk.crv, kty: jwk.kty, x: jwk.x, y: jwk.y })
}

/**
 * The RFC 7638 JWK thumbprint of an EC public key: SHA-256 of its required
 * members `{"crv","kty","x","y"}` (in that order, no whitespace), base64url
 * without padding (43 characters).
 *
 * @example
 * const jkt = await jwkThumbprint({ kty: 'EC', crv: 'P-256', x, y }) // 43 characters
 */
export async function jwkThumbprint(
  jwk: DevicePublicJwk,
  subtle: SubtleCrypto = globalThis.crypto.subtle,
): Promise<string> {
  const digest = await subtle.digest('SHA-256', utf8(thumbprintInput(jwk)))
  return bytesToBase64url(new Uint8Array(digest))
}

async function deviceKeyOf(
  record: DeviceKeyRecord,
  subtle: SubtleCrypto,
  now: () => number,
): Promise<DeviceKey> {
  const exported = await subtle.exportKey('jwk', record.publicKey)
  if (exported.kty !== 'EC' || exported.crv !== 'P-256' || !exported.x || !exported.y)
    throw new Error('The device key is not a P-256 key')
  const publicJwk: DevicePublicJwk = { kty: 'EC', crv: 'P-256', x: exported.x, y: exported.y }
  const thumbprint = await jwkThumbprint(publicJwk, subtle)
  const header = b64uJson({ typ: ENCLAVE_PROOF_TYP, alg: 'ES256', jwk: publicJwk })

  /**
   * RFC 9449 §4.2 shape: `htm` the method, `htu` the URL without query and
   * fragment, `iat` in seconds, a fresh random `jti`, and `ath` the SHA-256
   * of the access token. WebCrypto's ECDSA signature is already the raw
   * `r ‖ s` that JWS ES256 wants (RFC 7518 §3.4).
   */
  async function signProof({ method, url, accessToken }: ProofInput): Promise<string> {
    const target = new URL(url)
    const ath = new Uint8Array(await subtle.digest('SHA-256', utf8(accessToken)))
    const payload = b64uJson({
      htm: method,
      htu: `${target.origin}${target.pathname}`,
      iat: Math.floor(now() / 1000),
      jti: bytesToBase64url(globalThis.crypto.getRandomValues(new Uint8Array(16))),
      ath: bytesToBase64url(ath),
    })
    const signingInput = `${header}.${payload}`
    const signature = await subtle.sign(ES256, record.privateKey, utf8(signingInput))
    return `${signingInput}.${bytesToBase64url(new Uint8Array(signature))}`
  }

  return { appId: record.appId, publicJwk, thumbprint, signProof }
}

/** The device key as a page uses it. */
export interface PageDeviceKey {
  /** What the ready message announces: null (and a warning) when WebCrypto failed. */
  thumbprint: Promise<string | null>
  /** Signs with the page's key. */
  signProof: ProofSigner
}

/**
 * Starts loading the app's device key for a page (the wallet page and the
 * export page share it: same origin, same IndexedDB).
 *
 * When the browser refuses the enclave origin its storage (a third-party
 * frame in a browser that blocks third-party storage: the Latchkey server on
 * another site than the app), the page makes a key that lives as long as the
 * page does (`fallback`, in memory): logins in this page bind to it and the
 * wallet works; after a reload the key is gone, and a new login binds the
 * next one (docs/security.md "Key routes answer only to the enclave"). The
 * device share has the same limit already: without storage, every page load
 * recovers.
 *
 * @example
 * const key = loadPageDeviceKey(new IndexedDbDeviceKeyStore(), config.appId)
 * createServerApi({ appId: config.appId, proof: key.signProof })
 */
export function loadPageDeviceKey(
  store: DeviceKeyStore,
  appId: string,
  logger: Pick<Console, 'warn'> = console,
  fallback: DeviceKeyStore = new MemoryDeviceKeyStore(),
): PageDeviceKey {
  const key = loadDeviceKey(store, appId).catch((error: unknown) => {
    logger.warn(
      'Latchkey: the wallet enclave cannot store its device key here; it uses a key that lasts until the page reloads',
      error,
    )
    return loadDeviceKey(fallback, appId)
  })
  const thumbprint = key.then(
    (loaded) => loaded.thumbprint,
    (error: unknown) => {
      logger.warn('Latchkey: the wallet enclave could not make its device key', error)
      return null
    },
  )
  return {
    thumbprint,
    signProof: async (input) => (await key).signProof(input),
  }
}
