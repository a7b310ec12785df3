import {
  METAMASK_WALLETCONNECT_SIGN_DELAY_MS,
  WALLET_RPC_TIMEOUT_MS,
} from '@latchkey/protocol/constants'
import { mainnet } from 'viem/chains'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { createLatchkeyClient } from '../client.ts'
import { createMemoryStorage } from '../storage.ts'
import { APP_ID, authResponse, createFakeFetch, json } from '../test/fake-server.ts'
import type { EIP1193Provider } from './ethereum-discovery.ts'
import { signInWithEthereum } from './sign-in.ts'
import type { ConnectedEthereumExternalWallet, ConnectorType } from './types.ts'

// Spec 01 §9 timings of the SIWE sign-in, on a fake clock: a 2500 ms delay
// before MetaMask signs through WalletConnect, and the wallet's own request
// timeout (120000 ms by default, overridable per wallet).

const ADDRESS = '0xd8dA6BF26964aF9D7eEd9e03E53415D37aA96045'
const PAGE = { host: 'app.test', origin: 'https://app.test' }

function client() {
  const exp = Math.floor(Date.now() / 1000) + 3600
  const fake = createFakeFetch((call) =>
    new URL(call.url).pathname === '/api/v1/siwe/init'
      ? json(200, { nonce: 'n0nce1234567890', address: ADDRESS, expires_at: Date.now() + 60_000 })
      : json(200, { ...authResponse({ exp }), is_new_user: false }),
  )
  return createLatchkeyClient({
    appId: APP_ID,
    apiUrl: 'http://api.test',
    fetch: fake.fetch,
    storage: createMemoryStorage(),
    cookies: { get: () => null, set() {}, remove() {} },
    http: { sleep: async () => {}, maxRetries: 0 },
  })
}

/** A wallet whose personal_sign answers when the test says so. */
function wallet(
  walletClientType: string,
  connectorType: ConnectorType,
  rpcTimeoutMs?: number,
): { wallet: ConnectedEthereumExternalWallet; signs: () => number; answer(): void } {
  let answer = () => {}
  const request = vi.fn(
    ({ method }: { method: string }) =>
      new Promise((resolve) => {
        if (method === 'personal_sign') answer = () => resolve(`0x${'11'.repeat(65)}`)
      }),
  )
  const provider: EIP1193Provider = { request }
  return {
    wallet: {
      type: 'ethereum',
      address: ADDRESS,
      chainId: 'eip155:1',
      connectedAt: 1,
      walletClientType,
      connectorType,
      imported: false,
      meta: { name: walletClientType, icon: null, id: connectorType },
      ...(rpcTimeoutMs ? { rpcTimeoutMs } : {}),
      getEthereumProvider: () => provider,
      switchChain: async () => {},
      disconnect: async () => {},
    },
    signs: () => request.mock.calls.filter(([args]) => args.method === 'personal_sign').length,
    answer: () => answer(),
  }
}

const options = { chains: [mainnet], defaultChain: mainnet, location: PAGE }

function track<T>(promise: Promise<T>) {
  const probe = { settled: false, value: undefined as unknown }
  promise.then(
    (value) => Object.assign(probe, { settled: true, value }),
    (error: unknown) => Object.assign(probe, { settled: true, value: error }),
  )
  return probe
}

beforeEach(() => {
  vi.useFakeTimers()
})
afterEach(() => {
  vi.useRealTimers()
})

describe('MetaMask through WalletConnect: 2500 ms before signing (spec 01 §9)', () => {
  it('asks MetaMask over WalletConnect to sign 2500 ms after "Sign to verify"', async () => {
    expect(METAMASK_WALLETCONNECT_SIGN_DELAY_MS).toBe(2_500)
    const fake = wallet('metamask', 'wallet_connect_v2')
    const statuses: string[] = []
    const signed = track(
      signInWithEthereum(client(), fake.wallet, {
        ...options,
        onStatus: (status) => statuses.push(status),
      }),
    )
    await vi.advanceTimersByTimeAsync(0)
    expect(statuses).toEqual(['awaiting-signature'])
    await vi.advanceTimersByTimeAsync(METAMASK_WALLETCONNECT_SIGN_DELAY_MS - 1)
    expect(fake.signs()).toBe(0)
    await vi.advanceTimersByTimeAsync(1)
    expect(fake.signs()).toBe(1)
    fake.answer()
    await vi.advanceTimersByTimeAsync(0)
    expect(signed.settled).toBe(true)
    expect(statuses).toEqual(['awaiting-signature', 'verifying'])
  })

  it.each([
    ['metamask', 'injected'],
    ['rainbow', 'wallet_connect_v2'],
  ] as const)('%s (%s) is asked at once', async (walletClientType, connectorType) => {
    const fake = wallet(walletClientType, connectorType)
    void signInWithEthereum(client(), fake.wallet, options).catch(() => undefined)
    await vi.advanceTimersByTimeAsync(0)
    expect(fake.signs()).toBe(1)
  })
})

describe("the wallet's request timeout (spec 01 §9)", () => {
  it('waits 120000 ms for the signature by default', async () => {
    const fake = wallet('metamask', 'injected')
    const signed = track(signInWithEthereum(client(), fake.wallet, options))
    await vi.advanceTimersByTimeAsync(WALLET_RPC_TIMEOUT_MS - 1)
    expect(signed.settled).toBe(false)
    await vi.advanceTimersByTimeAsync(1)
    expect(signed.value).toMatchObject({
      code: 'WALLET_REQUEST_TIMEOUT',
      message: 'Wallet timeout',
    })
  })

  it("uses the wallet's own timeout when it has one", async () => {
    const fake = wallet('metamask', 'injected', 10_000)
    const signed = track(signInWithEthereum(client(), fake.wallet, options))
    await vi.advanceTimersByTimeAsync(9_999)
    expect(signed.settled).toBe(false)
    await vi.advanceTimersByTimeAsync(1)
    expect(signed.value).toMatchObject({ code: 'WALLET_REQUEST_TIMEOUT' })
  })
})
