import { routes } from '@latchkey/protocol/routes'
import {
  type DelegateWalletRequest,
  delegateWalletRequestSchema,
  delegationInfo,
} from '@latchkey/protocol/schemas'
import { base64urlToBytes, bytesToBase64url } from '../encoding.ts'
import { createFakeServer, type FakeRoute } from './fake-server.test-helper.ts'
import { APP_ID, createHarness, HOST } from './harness.test-helper.ts'

// The server's side of delegated actions for enclave tests: a real P-256
// delegation key (Node's WebCrypto), the public key route, and a delegate
// route that opens the sealed share exactly as the server does (protocol
// `delegateWalletRequestSchema`'s format), checks MFA and ownership as the
// real route does, and marks the wallet `delegated: true`.

const { subtle } = globalThis.crypto
const P256 = { name: 'ECDH', namedCurve: 'P-256' } as const

/** A server's delegation key pair. */
export interface DelegationKeyPair {
  keyId: string
  privateKey: CryptoKey
  /** base64url of the 65-byte uncompressed point. */
  publicKey: string
}

export async function createDelegationKeyPair(keyId = 'dk_test_1'): Promise<DelegationKeyPair> {
  const pair = (await subtle.generateKey(P256, false, ['deriveBits'])) as CryptoKeyPair
  const raw = new Uint8Array(await subtle.exportKey('raw', pair.publicKey))
  return { keyId, privateKey: pair.privateKey, publicKey: bytesToBase64url(raw) }
}

/**
 * Opens a sealed delegated share as the server does: ECDH(server private,
 * ephemeral public) → HKDF-SHA256(salt = ephemeral point, info) → AES-256-GCM
 * with the info as additional data. Throws when any bound value differs.
 */
export async function openDelegatedShare(
  key: DelegationKeyPair,
  context: { appId: string; userId: string },
  body: Pick<DelegateWalletRequest, 'address' | 'ephemeral_public_key' | 'iv' | 'ciphertext'>,
): Promise<Uint8Array> {
  const ephemeralRaw = base64urlToBytes(body.ephemeral_public_key)
  const ephemeral = await subtle.importKey('raw', ephemeralRaw as BufferSource, P256, false, [])
  const shared = await subtle.deriveBits({ name: 'ECDH', public: ephemeral }, key.privateKey, 256)
  const info = new TextEncoder().encode(delegationInfo(context.appId, context.userId, body.address))
  const ikm = await subtle.importKey('raw', shared, 'HKDF', false, ['deriveKey'])
  const aes = await subtle.deriveKey(
    { name: 'HKDF', hash: 'SHA-256', salt: ephemeralRaw as BufferSource, info },
    ikm,
    { name: 'AES-GCM', length: 256 },
    false,
    ['decrypt'],
  )
  const plain = await subtle.decrypt(
    { name: 'AES-GCM', iv: base64urlToBytes(body.iv) as BufferSource, additionalData: info },
    aes,
    base64urlToBytes(body.ciphertext) as BufferSource,
  )
  return new Uint8Array(plain)
}

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } })

/**
 * The delegation routes for `createFakeServer({ routes })`. `opened` records
 * each share the delegate route opened, per address.
 */
export function fakeDelegationRoutes(appId: string, key: DelegationKeyPair) {
  const opened = new Map<string, Uint8Array>()
  const routesAdded: Record<string, FakeRoute> = {
    [routes.embeddedWalletsDelegationKey]: {
      public: true,
      handle: () => json(200, { key_id: key.keyId, public_key: key.publicKey }),
    },
    [routes.embeddedWalletsDelegate]: {
      async handle({ body, owner, user, wallets, mfaRequired }) {
        const parsed = delegateWalletRequestSchema.safeParse(body)
        if (!parsed.success || !owner || !user)
          return json(400, { code: 'INVALID_PAYLOAD', message: 'x' })
        const refused = mfaRequired()
        if (refused) return refused
        const b = parsed.data
        const wallet = wallets.find(
          (w) =>
            w.type === 'wallet' &&
            w.connector_type === 'embedded' &&
            w.chain_type === b.chain_type &&
            w.address.toLowerCase() === b.address.toLowerCase(),
        )
        if (wallet?.type !== 'wallet' || wallet.connector_type !== 'embedded')
          return json(403, { code: 'DELEGATION_ADDRESS_NOT_OWNED', message: 'x' })
        if (b.key_id !== key.keyId)
          return json(400, { code: 'DELEGATION_SHARE_INVALID', message: 'x' })
        try {
          opened.set(b.address, await openDelegatedShare(key, { appId, userId: owner }, b))
        } catch {
          return json(400, { code: 'DELEGATION_SHARE_INVALID', message: 'x' })
        }
        wallet.delegated = true
        return json(200, { user: user() })
      },
    },
  }
  return { routes: routesAdded, opened }
}

/** An embedded wallet as the enclave's answers list it. */
export type DelegationTestWallet = {
  address: string
  chain_type: string
  entropy_id: string
  delegated: boolean
}

/**
 * The enclave page framed by a host, against the fake server with the
 * delegation routes: `create` makes a user's Ethereum and Solana wallets,
 * `delegate` sends `latchkey:delegate` as the host does, `posted` lists the
 * delegate requests the server got.
 */
export async function setupDelegation() {
  const key = await createDelegationKeyPair()
  const delegation = fakeDelegationRoutes(APP_ID, key)
  const server = createFakeServer({ appId: APP_ID, routes: delegation.routes })
  const h = createHarness({ fetch: server.fetch, ancestorOrigins: [HOST] })
  const create = async (token: string) => {
    const answer = await h.request('latchkey:wallets:create', {
      access_token: token,
      chain_types: ['ethereum', 'solana'],
      recovery: { method: 'latchkey' },
    })
    const { user } = answer.message.data as { user: { linked_accounts: DelegationTestWallet[] } }
    return user.linked_accounts as [DelegationTestWallet, DelegationTestWallet]
  }
  const delegate = async (token: string, address: string, chain_type: string) =>
    (await h.request('latchkey:delegate', { access_token: token, address, chain_type })).message
  const posted = () => server.calls.filter((c) => c.path === routes.embeddedWalletsDelegate)
  return { key, delegation, server, h, create, delegate, posted }
}
