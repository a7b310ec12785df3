import { routes } from '@latchkey/protocol/routes'
import type { FarcasterSignerResponse, UserWire } from '@latchkey/protocol/schemas'
import { ed25519 } from '@noble/curves/ed25519.js'
import { IDBFactory } from 'fake-indexeddb'
import { beforeEach, describe, expect, it } from 'vitest'
import { base64urlToBytes, bytesToBase64url } from '../encoding.ts'
import { createServerApi } from './api.ts'
import { loadDeviceKey } from './device-key.ts'
import { MemoryDeviceKeyStore } from './device-key-store.ts'
import {
  type FarcasterSignerKeyStore,
  IndexedDbFarcasterSignerKeyStore,
  MemoryFarcasterSignerKeyStore,
} from './farcaster-signer-store.ts'
import { createHandlers, type Handlers } from './handlers.ts'
import { APP_ID } from './harness.test-helper.ts'
import { ENCLAVE_ORIGIN, verifyProof } from './proof.test-helper.ts'
import { MemoryDeviceShareStore } from './store.ts'

// The Farcaster signer key (docs/farcaster-signer.md) is made in the enclave,
// never leaves it, and signs only for its own user once the server recorded
// it as that user's approved signer. The server here answers the two routes
// the handlers call (users/me and farcaster/signer/init) and checks each
// request's enclave proof, as the real one does.

const TOKEN_A = 'token-a'
const TOKEN_B = 'token-b'

interface FakeUser {
  id: string
  fid: number | null
  signerPublicKey: string | null
}

function userWire(user: FakeUser): UserWire {
  return {
    id: user.id,
    created_at: 1,
    linked_accounts:
      user.fid === null
        ? []
        : [
            {
              type: 'farcaster',
              fid: user.fid,
              owner_address: '0x0000000000000000000000000000000000000001',
              username: null,
              display_name: null,
              bio: null,
              profile_picture_url: null,
              signer_public_key: user.signerPublicKey,
              verified_at: 1,
              first_verified_at: 1,
              latest_verified_at: 1,
            },
          ],
    mfa_methods: [],
    has_accepted_terms: false,
    is_guest: false,
  }
}

let users: Record<string, FakeUser>
let initBodies: Array<{ token: string; body: { ed25519_public_key: string } }>
let keys: FarcasterSignerKeyStore
let handlers: Handlers

async function fakeServer(url: string, init: RequestInit): Promise<Response> {
  const token = String((init.headers as Record<string, string>).authorization).slice(7)
  const path = new URL(url, ENCLAVE_ORIGIN).pathname
  await verifyProof((init.headers as Record<string, string>).dpop, {
    method: String(init.method),
    url: `${ENCLAVE_ORIGIN}${path}`,
    accessToken: token,
  })
  const user = users[token]
  if (!user) return Response.json({ code: 'UNAUTHORIZED', message: 'no' }, { status: 401 })
  if (path === routes.usersMe) return Response.json({ user: userWire(user), identity_token: null })
  if (path === routes.farcasterSignerInit) {
    const body = JSON.parse(String(init.body))
    initBodies.push({ token, body })
    return Response.json({
      public_key: body.ed25519_public_key,
      status: 'pending_approval',
      signer_approval_url: 'farcaster://signed-key-request?token=t1',
      fid: null,
    })
  }
  return Response.json({ code: 'NOT_FOUND', message: 'no' }, { status: 404 })
}

beforeEach(async () => {
  users = {
    [TOKEN_A]: { id: 'user-a', fid: 77, signerPublicKey: null },
    [TOKEN_B]: { id: 'user-b', fid: 88, signerPublicKey: null },
  }
  initBodies = []
  keys = new MemoryFarcasterSignerKeyStore()
  const deviceKey = await loadDeviceKey(new MemoryDeviceKeyStore(), APP_ID)
  handlers = createHandlers({
    appId: APP_ID,
    api: createServerApi({
      appId: APP_ID,
      fetch: fakeServer,
      proof: deviceKey.signProof,
      origin: ENCLAVE_ORIGIN,
    }),
    store: new MemoryDeviceShareStore(),
    farcasterSignerKeys: keys,
  })
})

const init = (token: string) =>
  handlers['latchkey:farcaster-signer:init']({
    access_token: token,
  }) as Promise<FarcasterSignerResponse>
const sign = (token: string, hash: Uint8Array) =>
  handlers['latchkey:farcaster-signer:sign']({
    access_token: token,
    message_hash: bytesToBase64url(hash),
  }) as Promise<{ signature: string }>
const approve = (token: string, publicKey: string) => {
  const user = users[token]
  if (user) user.signerPublicKey = publicKey
}

describe('farcaster signer key in the enclave', () => {
  it('init creates an ed25519 key and sends only its public key to the server', async () => {
    const answer = await init(TOKEN_A)
    const record = await keys.get(APP_ID, 'user-a')
    expect(record?.publicKey).toMatch(/^0x[0-9a-f]{64}$/)
    expect(answer).toEqual({
      public_key: record?.publicKey,
      status: 'pending_approval',
      signer_approval_url: 'farcaster://signed-key-request?token=t1',
      fid: null,
    })
    expect(initBodies).toEqual([
      { token: TOKEN_A, body: { ed25519_public_key: record?.publicKey } },
    ])
  })

  it('the signer key is never exported: not extractable, in memory or after a reload', async () => {
    const factory = new IDBFactory()
    keys = new IndexedDbFarcasterSignerKeyStore(factory)
    const deviceKey = await loadDeviceKey(new MemoryDeviceKeyStore(), APP_ID)
    handlers = createHandlers({
      appId: APP_ID,
      api: createServerApi({
        appId: APP_ID,
        fetch: fakeServer,
        proof: deviceKey.signProof,
        origin: ENCLAVE_ORIGIN,
      }),
      store: new MemoryDeviceShareStore(),
      farcasterSignerKeys: keys,
    })
    const answer = await init(TOKEN_A)
    const reloaded = await new IndexedDbFarcasterSignerKeyStore(factory).get(APP_ID, 'user-a')
    expect(reloaded?.publicKey).toBe(answer.public_key)
    expect(reloaded?.privateKey.extractable).toBe(false)
    for (const format of ['jwk', 'pkcs8', 'raw'] as const)
      await expect(
        globalThis.crypto.subtle.exportKey(format, reloaded?.privateKey as CryptoKey),
      ).rejects.toThrow()
    // Nothing the page answers or sends carries more than the public key.
    expect(Object.keys(answer).sort()).toEqual([
      'fid',
      'public_key',
      'signer_approval_url',
      'status',
    ])
    expect(JSON.stringify(initBodies)).not.toMatch(/"d"|pkcs8|private/i)
  })

  it('init again reuses the same key (persisted per app and user)', async () => {
    const first = await init(TOKEN_A)
    const second = await init(TOKEN_A)
    expect(second.public_key).toBe(first.public_key)
    const other = await init(TOKEN_B)
    expect(other.public_key).not.toBe(first.public_key)
  })

  it('the signature of an approved signer verifies with @noble/curves ed25519', async () => {
    const { public_key } = await init(TOKEN_A)
    approve(TOKEN_A, public_key)
    const hash = crypto.getRandomValues(new Uint8Array(20))
    const { signature } = await sign(TOKEN_A, hash)
    const publicKey = Uint8Array.from(Buffer.from(public_key.slice(2), 'hex'))
    expect(ed25519.verify(base64urlToBytes(signature), hash, publicKey)).toBe(true)
    expect(
      ed25519.verify(
        base64urlToBytes(signature),
        hash.map((b) => b ^ 1),
        publicKey,
      ),
    ).toBe(false)
  })

  it('signs nothing before the user approved the signer', async () => {
    await init(TOKEN_A)
    await expect(sign(TOKEN_A, new Uint8Array(20))).rejects.toMatchObject({
      code: 'FARCASTER_SIGNER_CONNECT_FAILED',
    })
  })

  it("another user's session cannot sign with a user's key", async () => {
    const { public_key } = await init(TOKEN_A)
    approve(TOKEN_A, public_key)
    // User B claims A's key as theirs at the server: B has no key here, so nothing is signed.
    approve(TOKEN_B, public_key)
    await expect(sign(TOKEN_B, new Uint8Array(20))).rejects.toMatchObject({
      code: 'FARCASTER_SIGNER_CONNECT_FAILED',
    })
  })

  it('a user without a Farcaster account gets Connect failed and no key', async () => {
    const user = users[TOKEN_A]
    if (user) user.fid = null
    await expect(init(TOKEN_A)).rejects.toMatchObject({
      code: 'FARCASTER_SIGNER_CONNECT_FAILED',
      message: 'Connect failed',
    })
    expect(await keys.get(APP_ID, 'user-a')).toBeNull()
    expect(initBodies).toEqual([])
  })

  it('refuses an empty or oversized message hash', async () => {
    const { public_key } = await init(TOKEN_A)
    approve(TOKEN_A, public_key)
    await expect(sign(TOKEN_A, new Uint8Array(65))).rejects.toMatchObject({
      code: 'INVALID_PAYLOAD',
    })
  })
})
