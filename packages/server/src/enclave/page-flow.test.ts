import { Header, routes } from '@latchkey/protocol'
import { verifyMessage } from 'viem'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { FetchLike } from '../../../enclave/src/page/api.ts'
import { createServerApi } from '../../../enclave/src/page/api.ts'
import { type DeviceKey, loadDeviceKey } from '../../../enclave/src/page/device-key.ts'
import { MemoryDeviceKeyStore } from '../../../enclave/src/page/device-key-store.ts'
import { createHandlers } from '../../../enclave/src/page/handlers.ts'
import { MemoryDeviceShareStore } from '../../../enclave/src/page/store.ts'
import { getTestInstance, type TestInstance } from '../test/instance.ts'

// The enclave page's handlers against the real server routes (the page's same-origin fetch
// is wired to app.request). Proves the page and the share-storage API agree on the contract.
let t: TestInstance
beforeAll(async () => {
  t = await getTestInstance()
})
afterAll(() => t.close())

/** A device: the enclave's own device key (packages/enclave, WebCrypto) and its share store. */
async function newDevice() {
  const key = await loadDeviceKey(new MemoryDeviceKeyStore(), t.app.id, { now: t.clock.now })
  return { key, login: (email: string) => loginBound(email, key.thumbprint) }
}

/** An email login whose session is bound to `thumbprint` (the SDK sends it on the login request). */
async function loginBound(email: string, thumbprint: string): Promise<string> {
  const init = await t.request(routes.emailInit, { body: { email } })
  expect(init.status).toBe(200)
  const auth = await t.request(routes.emailAuthenticate, {
    body: { email, code: await t.lastCode(email) },
    headers: { [Header.enclaveKey]: thumbprint },
  })
  expect(auth.status).toBe(200)
  t.clock.advance(31_000)
  return auth.body.token as string
}

/**
 * What a browser sends for the page's same-origin fetch: POSTs carry the
 * page's own Origin (unless `sendOrigin` is false: not a browser). The proof
 * is the enclave's own (`createServerApi`'s signer), checked by the server's
 * verifier: two independent implementations of one contract.
 */
function pageFetch(options: { sendOrigin?: boolean } = {}): FetchLike {
  return async (input, init) => {
    const headers = new Headers(init.headers)
    const method = init.method ?? 'GET'
    if (method !== 'GET' && options.sendOrigin !== false) headers.set('origin', t.ownOrigin)
    return t.server.app.request(input, { method, headers, body: init.body ?? null })
  }
}

function page(
  key: DeviceKey,
  fetch: FetchLike = pageFetch(),
  store = new MemoryDeviceShareStore(),
) {
  const handlers = createHandlers({
    appId: t.app.id,
    api: createServerApi({ appId: t.app.id, fetch, proof: key.signProof, origin: t.ownOrigin }),
    store,
  })
  return { handlers, store }
}

describe('enclave page ↔ server', () => {
  it('create → connect → personal_sign → recover on a new device → sign again', async () => {
    const first = await newDevice()
    const access_token = await first.login('flow@example.com')
    const device1 = page(first.key)
    const { user } = (await device1.handlers['latchkey:wallets:create']({
      access_token,
      chain_types: ['ethereum', 'solana'],
      recovery: { method: 'latchkey' },
    })) as { user: { linked_accounts: { type: string; address: string; entropy_id?: string }[] } }
    const wallet = user.linked_accounts.find((a) => a.type === 'wallet') as {
      address: `0x${string}`
      entropy_id: string
    }
    expect(wallet.entropy_id.toLowerCase()).toBe(wallet.address.toLowerCase())
    expect(device1.store.records.size).toBe(1)

    const connected = await device1.handlers['latchkey:wallets:connect']({
      access_token,
      entropy_id: wallet.entropy_id,
    })
    expect(connected).toMatchObject({ status: 'ready', recovery_method: 'latchkey' })

    const sign = async (handlers: typeof device1.handlers, token = access_token) =>
      (
        (await handlers['latchkey:wallets:rpc']({
          access_token: token,
          entropy_id: wallet.entropy_id,
          chain_type: 'ethereum',
          wallet_index: 0,
          request: { method: 'personal_sign', params: ['hello', wallet.address] },
        })) as { result: `0x${string}` }
      ).result
    expect(
      await verifyMessage({
        address: wallet.address,
        message: 'hello',
        signature: await sign(device1.handlers),
      }),
    ).toBe(true)

    // A new device: its own enclave key, bound to its own login.
    const second = await newDevice()
    const otherToken = await second.login('flow@example.com')
    const other = page(second.key)
    expect(
      await other.handlers['latchkey:wallets:connect']({
        access_token: otherToken,
        entropy_id: wallet.entropy_id,
      }),
    ).toMatchObject({ status: 'needs-recovery', recovery_method: 'latchkey' })
    await other.handlers['latchkey:wallets:recover']({
      access_token: otherToken,
      entropy_id: wallet.entropy_id,
    })
    expect(
      await verifyMessage({
        address: wallet.address,
        message: 'hello',
        signature: await sign(other.handlers, otherToken),
      }),
    ).toBe(true)
  })

  it('stores nothing when the server refuses the create (already has a wallet)', async () => {
    const { key, login } = await newDevice()
    const access_token = await login('twice@example.com')
    const first = page(key)
    await first.handlers['latchkey:wallets:create']({
      access_token,
      chain_types: ['ethereum'],
      recovery: { method: 'latchkey' },
    })
    const second = page(key)
    await expect(
      second.handlers['latchkey:wallets:create']({
        access_token,
        chain_types: ['ethereum'],
        recovery: { method: 'latchkey' },
      }),
    ).rejects.toMatchObject({ code: expect.any(String) })
    expect(second.store.records.size).toBe(0)
  })

  // A browser sends `Origin: <the server's own origin>` on the page's same-origin POSTs;
  // key routes answer nothing else (http/enclave-auth.ts).
  it('is refused without the page’s own Origin, and stores nothing', async () => {
    const { key, login } = await newDevice()
    const access_token = await login('origin@example.com')
    const device1 = page(key, pageFetch({ sendOrigin: false }))
    const before = await t.countRows('wallet_secrets')
    await expect(
      device1.handlers['latchkey:wallets:create']({
        access_token,
        chain_types: ['ethereum'],
        recovery: { method: 'latchkey' },
      }),
    ).rejects.toMatchObject({ code: 'ORIGIN_NOT_ALLOWED' })
    expect(device1.store.records.size).toBe(0)
    expect(await t.countRows('wallet_secrets')).toBe(before)
  })

  it('account deletion: the server deletes the user and its secret, the page its share; without the own Origin nothing goes', async () => {
    const { key, login } = await newDevice()
    const access_token = await login('delete-flow@example.com')
    const device = page(key)
    await device.handlers['latchkey:wallets:create']({
      access_token,
      chain_types: ['ethereum'],
      recovery: { method: 'latchkey' },
    })
    expect(device.store.records.size).toBe(1)
    const secrets = await t.countRows('wallet_secrets')

    // Not from a browser on the enclave's origin: refused, nothing deleted either side.
    const outside = page(key, pageFetch({ sendOrigin: false }), device.store)
    await expect(
      outside.handlers['latchkey:account:delete']({ access_token }),
    ).rejects.toMatchObject({ code: 'ORIGIN_NOT_ALLOWED' })
    expect(device.store.records.size).toBe(1)
    expect(await t.countRows('wallet_secrets')).toBe(secrets)

    expect(await device.handlers['latchkey:account:delete']({ access_token })).toEqual({
      success: true,
    })
    expect(device.store.records.size).toBe(0)
    expect(await t.countRows('wallet_secrets')).toBe(secrets - 1)
    expect((await t.request(routes.usersMe, { token: access_token })).status).toBe(401)
  })
})
