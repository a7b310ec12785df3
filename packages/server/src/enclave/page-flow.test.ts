import { verifyMessage } from 'viem'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { FetchLike } from '../../../enclave/src/page/api.ts'
import { createServerApi } from '../../../enclave/src/page/api.ts'
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

/** What a browser sends for the page's same-origin fetch: POSTs carry the page's own Origin. */
function pageFetch(options: { sendOrigin: boolean }): FetchLike {
  return async (input, init) => {
    const headers = new Headers(init.headers)
    if (options.sendOrigin && init.method !== 'GET') headers.set('origin', 'http://latchkey.test')
    return t.server.app.request(input, { method: init.method, headers, body: init.body ?? null })
  }
}

function page(fetch: FetchLike, store = new MemoryDeviceShareStore()) {
  const handlers = createHandlers({
    appId: t.app.id,
    api: createServerApi({ appId: t.app.id, fetch }),
    store,
  })
  return { handlers, store }
}

describe('enclave page ↔ server', () => {
  it('create → connect → personal_sign → recover on a new device → sign again', async () => {
    const access_token = (await t.login('flow@example.com')).token as string
    const device = page(pageFetch({ sendOrigin: false }))
    const { user } = (await device.handlers['latchkey:wallets:create']({
      access_token,
      chain_types: ['ethereum', 'solana'],
      recovery: { method: 'latchkey' },
    })) as { user: { linked_accounts: { type: string; address: string; entropy_id?: string }[] } }
    const wallet = user.linked_accounts.find((a) => a.type === 'wallet') as {
      address: `0x${string}`
      entropy_id: string
    }
    expect(wallet.entropy_id.toLowerCase()).toBe(wallet.address.toLowerCase())
    expect(device.store.records.size).toBe(1)

    const connected = await device.handlers['latchkey:wallets:connect']({
      access_token,
      entropy_id: wallet.entropy_id,
    })
    expect(connected).toMatchObject({ status: 'ready', recovery_method: 'latchkey' })

    const sign = async (handlers: typeof device.handlers) =>
      (
        (await handlers['latchkey:wallets:rpc']({
          access_token,
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
        signature: await sign(device.handlers),
      }),
    ).toBe(true)

    const other = page(pageFetch({ sendOrigin: false }))
    expect(
      await other.handlers['latchkey:wallets:connect']({
        access_token,
        entropy_id: wallet.entropy_id,
      }),
    ).toMatchObject({ status: 'needs-recovery', recovery_method: 'latchkey' })
    await other.handlers['latchkey:wallets:recover']({
      access_token,
      entropy_id: wallet.entropy_id,
    })
    expect(
      await verifyMessage({
        address: wallet.address,
        message: 'hello',
        signature: await sign(other.handlers),
      }),
    ).toBe(true)
  })

  it('stores nothing when the server refuses the create (already has a wallet)', async () => {
    const access_token = (await t.login('twice@example.com')).token as string
    const first = page(pageFetch({ sendOrigin: false }))
    await first.handlers['latchkey:wallets:create']({
      access_token,
      chain_types: ['ethereum'],
      recovery: { method: 'latchkey' },
    })
    const second = page(pageFetch({ sendOrigin: false }))
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
  // resolveApp (http/route.ts) accepts it beside the app's own origins.
  it('accepts the page’s own origin on same-origin POSTs', async () => {
    const access_token = (await t.login('origin@example.com')).token as string
    const device = page(pageFetch({ sendOrigin: true }))
    await device.handlers['latchkey:wallets:create']({
      access_token,
      chain_types: ['ethereum'],
      recovery: { method: 'latchkey' },
    })
    expect(device.store.records.size).toBe(1)
  })
})
