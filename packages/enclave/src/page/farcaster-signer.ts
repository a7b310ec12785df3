import type {
  enclaveRequestSchemas,
  FarcasterSignerResponse,
  UserWire,
} from '@latchkey/protocol/schemas'
import type { z } from 'zod'
import { base64urlToBytes, bytesToBase64url } from '../encoding.ts'
import type { ServerApi } from './api.ts'
import { PageError } from './errors.ts'
import {
  type FarcasterSignerKeyRecord,
  type FarcasterSignerKeyStore,
  IndexedDbFarcasterSignerKeyStore,
} from './farcaster-signer-store.ts'

type Payload<E extends keyof typeof enclaveRequestSchemas> = z.output<
  (typeof enclaveRequestSchemas)[E]
>

export interface FarcasterSignerHandlerDeps {
  appId: string
  api: ServerApi
  /** Where signer keys are kept (default: this origin's IndexedDB). */
  farcasterSignerKeys?: FarcasterSignerKeyStore
  /** Default: globalThis.crypto.subtle. */
  subtle?: SubtleCrypto
  now?: () => number
}

export interface FarcasterSignerHandlers {
  'latchkey:farcaster-signer:init'(
    data: Payload<'latchkey:farcaster-signer:init'>,
  ): Promise<FarcasterSignerResponse>
  'latchkey:farcaster-signer:sign'(
    data: Payload<'latchkey:farcaster-signer:sign'>,
  ): Promise<{ signature: string }>
}

/** A Farcaster message hash is 20 bytes (BLAKE3-160); anything up to 64 bytes is signed. */
const MAX_HASH_BYTES = 64

const hex = (bytes: Uint8Array) =>
  `0x${Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('')}` as const

function farcasterAccountOf(user: UserWire) {
  const account = user.linked_accounts.find((a) => a.type === 'farcaster')
  return account?.type === 'farcaster' ? account : null
}

/**
 * The enclave's Farcaster signer handlers (merged into `createHandlers`;
 * docs/farcaster-signer.md). The ed25519 key is made here with WebCrypto,
 * `extractable: false`, kept per app and user in IndexedDB, and only its
 * public key and signatures leave the page.
 *
 * - `init`: reads the user (a proof-bound call, so the user is the session's),
 *   who must have a Farcaster account linked (else FARCASTER_SIGNER_CONNECT_FAILED);
 *   makes the user's key on first use; asks the server to start its signed key
 *   request (an enclave route) and answers the signer's state.
 * - `sign`: signs the message hash with the user's key, only once the server
 *   recorded that key as the signer of the user's Farcaster account (the user
 *   approved it); else FARCASTER_SIGNER_CONNECT_FAILED.
 *
 * @example
 * const handlers = { ...createFarcasterSignerHandlers({ appId, api }) }
 * const { public_key, signer_approval_url } = await handlers['latchkey:farcaster-signer:init']({ access_token })
 */
export function createFarcasterSignerHandlers(
  deps: FarcasterSignerHandlerDeps,
): FarcasterSignerHandlers {
  const { appId, api } = deps
  const subtle = deps.subtle ?? globalThis.crypto.subtle
  const now = deps.now ?? Date.now
  let keys: FarcasterSignerKeyStore | undefined = deps.farcasterSignerKeys
  const store = () => {
    keys ??= new IndexedDbFarcasterSignerKeyStore(globalThis.indexedDB)
    return keys
  }

  async function createKey(userId: string): Promise<FarcasterSignerKeyRecord> {
    const pair = (await subtle.generateKey({ name: 'Ed25519' }, false, [
      'sign',
      'verify',
    ])) as CryptoKeyPair
    const raw = new Uint8Array(await subtle.exportKey('raw', pair.publicKey))
    return store().putIfAbsent({
      appId,
      userId,
      privateKey: pair.privateKey,
      publicKey: hex(raw),
      createdAt: now(),
    })
  }

  return {
    async 'latchkey:farcaster-signer:init'(data) {
      const user = await api.me(data.access_token)
      if (!farcasterAccountOf(user)) throw new PageError('FARCASTER_SIGNER_CONNECT_FAILED')
      const key = (await store().get(appId, user.id)) ?? (await createKey(user.id))
      return api.farcasterSignerInit(data.access_token, key.publicKey)
    },

    async 'latchkey:farcaster-signer:sign'(data) {
      const hash = new Uint8Array(base64urlToBytes(data.message_hash))
      if (hash.length === 0 || hash.length > MAX_HASH_BYTES)
        throw new PageError('INVALID_PAYLOAD', 'Not a Farcaster message hash')
      const user = await api.me(data.access_token)
      const key = await store().get(appId, user.id)
      const account = farcasterAccountOf(user)
      if (!key || !account || account.signer_public_key?.toLowerCase() !== key.publicKey)
        throw new PageError('FARCASTER_SIGNER_CONNECT_FAILED')
      const signature = new Uint8Array(await subtle.sign({ name: 'Ed25519' }, key.privateKey, hash))
      return { signature: bytesToBase64url(signature) }
    },
  }
}
