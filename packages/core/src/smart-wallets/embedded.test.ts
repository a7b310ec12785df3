// @vitest-environment node
// createEmbeddedSmartWallet end to end with real peers: the Latchkey server
// (its smart_wallet link and rpc routes), the enclave page's handlers
// holding the embedded wallet's key (its shares at that server), Anvil with
// the ERC-4337 contracts, and Alto behind the server's rpc route.

import type { SmartWalletType, UserWire } from '@latchkey/protocol/schemas'
import { getTestInstance, TEST_ORIGIN, type TestInstance } from '@latchkey/server/test'
import {
  type AccountAbstractionChain,
  sharedAccountAbstractionChain,
} from '@latchkey/server/test/account-abstraction'
import { createPublicClient, createWalletClient, http, parseEther } from 'viem'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { verifyMessage } from 'viem/actions'
import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest'
import { createServerApi } from '../../../enclave/src/page/api.ts'
import { loadDeviceKey } from '../../../enclave/src/page/device-key.ts'
import { MemoryDeviceKeyStore } from '../../../enclave/src/page/device-key-store.ts'
import { createHandlers } from '../../../enclave/src/page/handlers.ts'
import { MemoryDeviceShareStore } from '../../../enclave/src/page/store.ts'
import { updateAppSettings } from '../../../server/src/apps/service.ts'
import { sponsorOnChain } from '../../../server/src/smart-wallets/paymaster.test-helper.ts'
import { createLatchkeyClient } from '../client.ts'
import { LatchkeyError } from '../errors.ts'
import { createMemoryStorage } from '../storage.ts'
import { embeddedWallets } from '../wallets/createWallet.ts'
import { attachEnclave } from '../wallets/enclave.ts'
import { createEmbeddedSmartWallet } from './embedded.ts'

let aa: AccountAbstractionChain
let t: TestInstance

beforeAll(async () => {
  aa = await sharedAccountAbstractionChain()
  t = await getTestInstance({
    // The link's nonce comes from the SIWE route: wallet logins are on.
    appSettings: { login_methods: { email: true, wallet: true } },
    chainRpcUrls: { [aa.chain.id]: aa.rpcUrl },
  })
  // SIWE messages carry the browser's time: the server's clock is the real one here.
  t.clock.set(Date.now())
  // linkSmartWallet names the page the message comes from.
  const { host, origin } = new URL(TEST_ORIGIN)
  vi.stubGlobal('window', { location: { host, origin } })
}, 180_000)
afterAll(async () => {
  vi.unstubAllGlobals()
  await t?.close()
  await aa?.stop()
})

/** The app's smart wallets: `type` on the chain, bundled by Alto, unsponsored. */
async function useSmartWallets(type: SmartWalletType) {
  await updateAppSettings(t.db, t.app.id, {
    smart_wallets: {
      enabled: true,
      type,
      chains: [{ chain_id: aa.chain.id, bundler_url: aa.bundlerUrl }],
    },
  })
  t.server.services.apps.invalidate(t.app.id)
}

/** A logged-in core client whose enclave (real handlers) created an embedded wallet at the server. */
async function userWithEmbeddedWallet(email: string) {
  const key = await loadDeviceKey(new MemoryDeviceKeyStore(), t.app.id, { now: t.clock.now })
  const auth = await t.login(email, { enclaveKey: { jkt: key.thumbprint } as never })
  const serverFetch = (async (input: RequestInfo | URL, init?: RequestInit) => {
    const headers = new Headers(init?.headers)
    if ((init?.method ?? 'GET') !== 'GET') headers.set('origin', TEST_ORIGIN)
    return t.server.app.request(String(input), { ...init, headers })
  }) as typeof fetch
  const handlers = createHandlers({
    appId: t.app.id,
    api: createServerApi({
      appId: t.app.id,
      fetch: async (input, init) => {
        const headers = new Headers(init.headers)
        if ((init.method ?? 'GET') !== 'GET') headers.set('origin', t.ownOrigin)
        return t.server.app.request(input, { ...init, headers })
      },
      proof: key.signProof,
      origin: t.ownOrigin,
    }),
    store: new MemoryDeviceShareStore(),
  })
  /** A page load of the app: a new client (its own app config), the same session and enclave. */
  const newPage = (user?: UserWire) => {
    const client = createLatchkeyClient({
      appId: t.app.id,
      apiUrl: t.ownOrigin,
      fetch: serverFetch,
      storage: createMemoryStorage(),
      cookies: { get: () => null, set() {}, remove() {} },
    })
    client.session.applyAuthResponse({ ...auth, ...(user ? { user } : {}) } as never)
    attachEnclave(client, {
      origin: t.ownOrigin,
      async request<T>(event: string, data: unknown) {
        const handler = handlers[event as keyof typeof handlers] as (d: unknown) => Promise<unknown>
        try {
          return (await handler(data)) as T
        } catch (error) {
          const code = (error as { code?: string }).code ?? 'INTERNAL_ERROR'
          throw new LatchkeyError(code as never, (error as Error).message)
        }
      },
      keyThumbprint: async () => key.thumbprint,
      destroy() {},
    })
    return client
  }
  const created = (await handlers['latchkey:wallets:create']({
    access_token: auth.token as string,
    chain_types: ['ethereum'],
    recovery: { method: 'latchkey' },
  })) as { user: UserWire }
  const client = newPage(created.user)
  const wallet = embeddedWallets(client.session.getState().user, 'ethereum')[0]
  if (!wallet) throw new Error('no embedded Ethereum wallet')
  return { client, wallet, newPage }
}

const smartWalletsOf = (client: ReturnType<typeof createLatchkeyClient>) =>
  (client.session.getState().user?.linkedAccounts ?? []).filter((a) => a.type === 'smart_wallet')

describe('createEmbeddedSmartWallet against the server', { timeout: 90_000 }, () => {
  test('links the Safe on first use, then sends a batch of two through the server rpc route', async () => {
    await useSmartWallets('safe')
    const { client, wallet } = await userWithEmbeddedWallet('safe-owner@example.com')
    const smartWallet = await createEmbeddedSmartWallet(client, { wallet, chain: aa.chain })
    expect(smartWalletsOf(client)).toMatchObject([
      { address: smartWallet.address, smartWalletType: 'safe', smartWalletVersion: '1.4.1' },
    ])

    const publicClient = createPublicClient({ chain: aa.chain, transport: http(aa.rpcUrl) })
    const funder = createWalletClient({
      account: aa.deployer.account,
      chain: aa.chain,
      transport: http(aa.rpcUrl),
    })
    await publicClient.waitForTransactionReceipt({
      hash: await funder.sendTransaction({ to: smartWallet.address, value: parseEther('1') }),
      pollingInterval: 50,
    })
    const [first, second] = [0, 1].map(() => privateKeyToAccount(generatePrivateKey()).address)
    const prepared = await smartWallet.prepareCalls([{ to: first as `0x${string}`, value: 7n }])
    expect(prepared).toMatchObject({ sponsored: false })
    expect(prepared.maxCost).toBeGreaterThan(0n)
    const sent = await smartWallet.sendCalls([
      { to: first as `0x${string}`, value: 7n },
      { to: second as `0x${string}`, value: 8n },
    ])
    expect(sent.success).toBe(true)
    expect(await publicClient.getBalance({ address: second as `0x${string}` })).toBe(8n)
    const message = 'hello from the Safe'
    expect(
      await verifyMessage(publicClient, {
        address: smartWallet.address,
        message,
        signature: await smartWallet.signMessage(message),
      }),
    ).toBe(true)

    // Again: already linked, nothing more to link.
    const again = await createEmbeddedSmartWallet(client, { wallet, chain: aa.chain })
    expect(again.address).toBe(smartWallet.address)
    expect(smartWalletsOf(client)).toHaveLength(1)
  })

  test('a user whose linked smart wallet is another account gets CANNOT_LINK_MORE_OF_TYPE', async () => {
    await useSmartWallets('safe')
    const { client, wallet, newPage } = await userWithEmbeddedWallet('changed-type@example.com')
    await createEmbeddedSmartWallet(client, { wallet, chain: aa.chain })
    const [linked] = smartWalletsOf(client)
    await useSmartWallets('simple')
    // The next page load reads the new type; the user's link is still the Safe.
    const user = client.session.getState().user
    if (!user) throw new Error('logged out')
    const later = newPage()
    later.session.setUser(user)
    await expect(
      createEmbeddedSmartWallet(later, { wallet, chain: aa.chain }),
    ).rejects.toMatchObject({
      code: 'CANNOT_LINK_MORE_OF_TYPE',
    })
    expect(smartWalletsOf(later)).toEqual([linked])
  })

  test("sponsored: a SimpleAccount that never held ETH is linked by its owner and sends, the app's paymaster pays", async () => {
    const { paymaster } = await sponsorOnChain(t, aa)
    const { client, wallet } = await userWithEmbeddedWallet('sponsored@example.com')
    const smartWallet = await createEmbeddedSmartWallet(client, { wallet, chain: aa.chain })
    expect(smartWallet).toMatchObject({ type: 'simple', sponsored: true })
    expect(smartWalletsOf(client)).toMatchObject([{ address: smartWallet.address }])
    const publicClient = createPublicClient({ chain: aa.chain, transport: http(aa.rpcUrl) })
    expect(await publicClient.getBalance({ address: smartWallet.address })).toBe(0n)

    const to = privateKeyToAccount(generatePrivateKey()).address
    const prepared = await smartWallet.prepareCalls([{ to, data: '0x' }])
    expect(prepared.sponsored).toBe(true)
    expect(prepared.userOperation.paymaster?.toLowerCase()).toBe(paymaster.toLowerCase())
    expect(prepared.maxCost).toBeGreaterThan(0n)
    const deposit = await publicClient.getBalance({ address: aa.entryPoint.address })
    const sent = await smartWallet.sendCalls([{ to, data: '0x' }])
    expect(sent.success).toBe(true)
    expect(await smartWallet.isDeployed()).toBe(true)
    expect(await publicClient.getBalance({ address: smartWallet.address })).toBe(0n)
    // The gas came out of the paymaster's EntryPoint deposit.
    expect(await publicClient.getBalance({ address: aa.entryPoint.address })).toBeLessThan(deposit)
  })

  test('simple_7702: linked as the wallet itself, upgraded by the first operation through the server', async () => {
    await useSmartWallets('simple_7702')
    const { client, wallet } = await userWithEmbeddedWallet('upgrade@example.com')
    const smartWallet = await createEmbeddedSmartWallet(client, { wallet, chain: aa.chain })
    expect(smartWallet.address.toLowerCase()).toBe(wallet.address.toLowerCase())
    expect(smartWalletsOf(client)).toMatchObject([{ smartWalletType: 'simple_7702' }])
    const publicClient = createPublicClient({ chain: aa.chain, transport: http(aa.rpcUrl) })
    const funder = createWalletClient({
      account: aa.deployer.account,
      chain: aa.chain,
      transport: http(aa.rpcUrl),
    })
    await publicClient.waitForTransactionReceipt({
      hash: await funder.sendTransaction({ to: smartWallet.address, value: parseEther('1') }),
      pollingInterval: 50,
    })
    const to = privateKeyToAccount(generatePrivateKey()).address
    const sent = await smartWallet.sendCalls([
      { to, value: 1n },
      { to, value: 2n },
    ])
    expect(sent.success).toBe(true)
    expect(await smartWallet.isDeployed()).toBe(true)
    expect(await publicClient.getBalance({ address: to })).toBe(3n)
  })
})
