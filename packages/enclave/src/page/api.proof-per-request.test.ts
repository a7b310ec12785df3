import { Header } from '@latchkey/protocol/constants'
import { routes } from '@latchkey/protocol/routes'
import { describe, expect, it, vi } from 'vitest'
import { createServerApi, type ServerApi } from './api.ts'
import { loadDeviceKey } from './device-key.ts'
import { MemoryDeviceKeyStore } from './device-key-store.ts'
import { PageError } from './errors.ts'
import { createFakeServer } from './fake-server.test-helper.ts'
import { APP_ID } from './harness.test-helper.ts'
import { ENCLAVE_ORIGIN } from './proof.test-helper.ts'

// docs/security.md "Key routes answer only to the enclave": every request
// the enclave makes carries its own proof (RFC 9449 §4.2 shape), checked here
// by the fake server with jose: signed by the device key, for this method and
// URL, this access token, and a jti never seen before.

const alice = 'user-alice'
const entropyId = '0x0000000000000000000000000000000000000001'

/** Each ServerApi call, with the method and path it must sign for. */
const everyCall: Array<[string, 'GET' | 'POST', string, (api: ServerApi) => Promise<unknown>]> = [
  ['create', 'POST', routes.embeddedWalletsCreate, (api) => api.create(alice, {} as never)],
  ['add', 'POST', routes.embeddedWalletsAdd, (api) => api.add(alice, {} as never)],
  ['authShare', 'POST', routes.embeddedWalletsAuthShare, (api) => api.authShare(alice, entropyId)],
  ['recovery', 'POST', routes.embeddedWalletsRecovery, (api) => api.recovery(alice, entropyId)],
  [
    'setRecovery',
    'POST',
    routes.embeddedWalletsSetRecovery,
    (api) => api.setRecovery(alice, {} as never),
  ],
  ['me', 'GET', routes.usersMe, (api) => api.me(alice)],
  ['deleteAccount', 'POST', routes.usersDelete, (api) => api.deleteAccount(alice)],
  [
    'cloudAuthenticate',
    'POST',
    routes.recoveryOAuthAuthenticate,
    (api) => api.cloudAuthenticate(alice, {} as never),
  ],
]

async function setup(options: { now?: () => number } = {}) {
  const server = createFakeServer({ appId: APP_ID })
  const key = await loadDeviceKey(new MemoryDeviceKeyStore(), APP_ID, options)
  const api = createServerApi({
    appId: APP_ID,
    fetch: server.fetch,
    proof: key.signProof,
    origin: ENCLAVE_ORIGIN,
  })
  return { server, key, api }
}

/** Runs a call for its request only: the fake answers bad bodies with errors, never a bad proof. */
async function send(call: Promise<unknown>) {
  const error = await call.then(
    () => null,
    (e: unknown) => e,
  )
  expect((error as PageError | null)?.code).not.toBe('ENCLAVE_PROOF_INVALID')
}

describe('enclave proofs: one per request', () => {
  it('signs every call with the device key, for its method, URL and access token, each with a fresh jti', async () => {
    const { server, key, api } = await setup()
    for (const [, , , call] of [...everyCall, ...everyCall]) await send(call(api))
    expect(server.calls).toHaveLength(everyCall.length * 2)
    server.calls.forEach((request, i) => {
      const [, method, path] = everyCall[i % everyCall.length] ?? []
      expect(request.headers[Header.enclaveProof]).toBeDefined()
      expect(request.proof).toMatchObject({
        jkt: key.thumbprint,
        htm: method,
        htu: `${ENCLAVE_ORIGIN}${path}`,
      })
    })
    const jtis = server.calls.map((c) => c.proof?.jti)
    expect(new Set(jtis).size).toBe(jtis.length)
    for (const jti of jtis) expect(jti).toMatch(/^[A-Za-z0-9_-]{22}$/)
  })

  it('dates each proof now (iat in seconds)', async () => {
    const now = Date.now()
    const { server, api } = await setup({ now: () => now })
    await send(api.me(alice))
    expect(server.calls[0]?.proof?.iat).toBe(Math.floor(now / 1000))
  })

  it('a proof is good once, and only with the access token it was made for', async () => {
    const { server, api } = await setup()
    await send(api.authShare(alice, entropyId))
    const [first] = server.calls
    const replay = (token: string) =>
      server.fetch(first?.path ?? '', {
        method: 'POST',
        headers: { ...first?.headers, authorization: `Bearer ${token}` },
        body: JSON.stringify(first?.body),
      })
    for (const token of [alice, 'user-bob']) {
      const answer = await replay(token)
      expect(answer.status).toBe(401)
      expect(await answer.json()).toMatchObject({ code: 'ENCLAVE_PROOF_INVALID' })
    }
  })

  it('fails the call before sending anything when the key cannot sign', async () => {
    const server = createFakeServer({ appId: APP_ID })
    const proof = vi.fn(async () => {
      throw new Error('IndexedDB is broken')
    })
    const api = createServerApi({
      appId: APP_ID,
      fetch: server.fetch,
      proof,
      origin: ENCLAVE_ORIGIN,
    })
    const error = await api.me(alice).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(PageError)
    expect(error).toMatchObject({ code: 'WALLET_PROXY_UNAVAILABLE' })
    expect(server.calls).toEqual([])
  })

  it('sends no proof without a signer, which the server refuses', async () => {
    const server = createFakeServer({ appId: APP_ID })
    const api = createServerApi({ appId: APP_ID, fetch: server.fetch })
    await expect(api.me(alice)).rejects.toMatchObject({ code: 'ENCLAVE_PROOF_INVALID' })
    expect(server.calls[0]?.headers[Header.enclaveProof]).toBeUndefined()
  })
})
