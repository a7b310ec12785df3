import {
  CONNECTOR_INIT_TIMEOUT_MS,
  INJECTED_DETECTION_TIMEOUT_MS,
  WALLET_LOOKUP_ATTEMPTS,
  WALLET_LOOKUP_INTERVAL_MS,
  WALLET_RPC_TIMEOUT_MS,
} from '@latchkey/protocol/constants'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { createMemoryStorage } from '../storage.ts'
import {
  connectionsKey,
  create,
  fakeEthereumWallet,
  installEthereum,
  resetExternalWalletFakes,
  storedRecords,
  VITALIK,
  VITALIK_CHECKSUMMED,
} from '../test/external-wallets.ts'
import type { ConnectedEthereumExternalWallet, StoredConnection } from './types.ts'

// Spec 01 §9 timings of the wallet manager, on a fake clock: connector init
// 1500 ms, injected detection 3000 ms, account and chain lookups 10 × 500 ms,
// wallet RPC timeout 120000 ms (overridable per wallet).

/** The SDK connectors: `init` decides when (and whether) they finish initialising. */
const sdk = vi.hoisted(() => ({
  init: null as null | Promise<void>,
  provider: null as unknown,
}))
vi.mock('./coinbase.ts', () => ({
  createCoinbaseProvider: vi.fn(async () => {
    await sdk.init
    return {
      provider: sdk.provider,
      walletSlug: () => 'coinbase_wallet',
      disconnect: vi.fn(async () => {}),
    }
  }),
}))
vi.mock('./walletconnect.ts', () => ({
  createWalletConnectProvider: vi.fn(async () => {
    await sdk.init
    return {
      provider: sdk.provider,
      walletSlug: () => 'rainbow',
      disconnect: vi.fn(async () => {}),
    }
  }),
}))

/** Settles-or-not probe of a promise. */
function track<T>(promise: Promise<T>) {
  const probe = { settled: false, value: undefined as unknown }
  promise.then(
    (value) => Object.assign(probe, { settled: true, value }),
    (error: unknown) => Object.assign(probe, { settled: true, value: error }),
  )
  return probe
}

const sdkRecord: StoredConnection = {
  key: 'coinbase_wallet',
  address: VITALIK_CHECKSUMMED,
  chainType: 'ethereum',
  connectorType: 'coinbase_wallet',
  walletClientType: 'coinbase_wallet',
  connectedAt: 1000,
}

beforeEach(() => {
  vi.useFakeTimers()
})
afterEach(() => {
  resetExternalWalletFakes()
  sdk.init = null
  sdk.provider = null
  vi.useRealTimers()
})

describe('connector init: 1500 ms (spec 01 §9)', () => {
  it('a stored SDK connection whose connector has not initialised after 1500 ms is skipped, its record kept', async () => {
    expect(CONNECTOR_INIT_TIMEOUT_MS).toBe(1_500)
    sdk.init = new Promise(() => {})
    const storage = createMemoryStorage()
    storage.set(connectionsKey, JSON.stringify([sdkRecord]))
    const { wallets } = create({ storage })
    const restored = track(wallets.restore())
    await vi.advanceTimersByTimeAsync(CONNECTOR_INIT_TIMEOUT_MS - 1)
    expect(restored.settled).toBe(false)
    await vi.advanceTimersByTimeAsync(1)
    expect(restored.settled).toBe(true)
    expect(wallets.getState().wallets).toEqual([])
    // Skipped, not forgotten: the next load tries again.
    expect(storedRecords(storage)).toEqual([sdkRecord])
  })

  it('a connector that initialises in time reconnects', async () => {
    let ready = () => {}
    sdk.init = new Promise((resolve) => {
      ready = resolve
    })
    sdk.provider = fakeEthereumWallet().provider
    ;(sdk.provider as { request: (a: { method: string }) => unknown }).request = vi.fn(
      async ({ method }: { method: string }) => (method === 'eth_chainId' ? '0x1' : [VITALIK]),
    )
    const storage = createMemoryStorage()
    storage.set(connectionsKey, JSON.stringify([sdkRecord]))
    const { wallets } = create({ storage })
    const restored = wallets.restore()
    await vi.advanceTimersByTimeAsync(CONNECTOR_INIT_TIMEOUT_MS - 1)
    ready()
    await restored
    expect(wallets.getState().wallets).toEqual([
      expect.objectContaining({ connectorType: 'coinbase_wallet', connectedAt: 1000 }),
    ])
  })

  it('a skipped record stays stored while other wallets come and go, until its own disconnects', async () => {
    let ready = () => {}
    sdk.init = new Promise((resolve) => {
      ready = resolve
    })
    const storage = createMemoryStorage()
    storage.set(connectionsKey, JSON.stringify([sdkRecord]))
    const { wallets } = create({ storage })
    const restored = wallets.restore()
    await vi.advanceTimersByTimeAsync(CONNECTOR_INIT_TIMEOUT_MS)
    await restored

    const key = installEthereum(fakeEthereumWallet())
    const metamask = await wallets.connect(key, 'ethereum')
    expect(storedRecords(storage)?.map((r) => r.key)).toEqual([key, 'coinbase_wallet'])
    await metamask.disconnect()
    expect(storedRecords(storage)?.map((r) => r.key)).toEqual(['coinbase_wallet'])

    // The user connects Coinbase Wallet again, then disconnects it: now it is forgotten.
    sdk.provider = fakeEthereumWallet().provider
    ready()
    const coinbase = await wallets.connect('coinbase_wallet', 'ethereum')
    expect(storedRecords(storage)?.map((r) => r.key)).toEqual(['coinbase_wallet'])
    await coinbase.disconnect()
    expect(storedRecords(storage)).toBeNull()
  })
})

describe('injected wallet detection: 3000 ms (spec 01 §9)', () => {
  const injectedRecord: StoredConnection = {
    key: 'eip6963:uuid-metamask',
    address: VITALIK_CHECKSUMMED,
    chainType: 'ethereum',
    connectorType: 'injected',
    walletClientType: 'metamask',
    connectedAt: 1000,
  }

  it('restore() waits up to 3000 ms for a stored wallet to announce itself', async () => {
    expect(INJECTED_DETECTION_TIMEOUT_MS).toBe(3_000)
    const storage = createMemoryStorage()
    storage.set(connectionsKey, JSON.stringify([injectedRecord]))
    const { wallets } = create({ storage })
    const restored = track(wallets.restore())
    await vi.advanceTimersByTimeAsync(INJECTED_DETECTION_TIMEOUT_MS - 1)
    expect(restored.settled).toBe(false)
    const fake = fakeEthereumWallet()
    fake.wallet.authorized = true
    installEthereum(fake)
    await vi.advanceTimersByTimeAsync(0)
    expect(restored.settled).toBe(true)
    expect(fake.methods()).toEqual(['eth_accounts', 'eth_chainId'])
    expect(wallets.getState().wallets).toHaveLength(1)
  })

  it('after 3000 ms without it, the record is forgotten', async () => {
    const storage = createMemoryStorage()
    storage.set(connectionsKey, JSON.stringify([injectedRecord]))
    const { wallets } = create({ storage })
    const restored = track(wallets.restore())
    await vi.advanceTimersByTimeAsync(INJECTED_DETECTION_TIMEOUT_MS - 1)
    expect(restored.settled).toBe(false)
    await vi.advanceTimersByTimeAsync(1)
    expect(restored.settled).toBe(true)
    expect(storedRecords(storage)).toBeNull()
  })
})

describe('account and chain lookups: 10 × 500 ms (spec 01 §9)', () => {
  it('a wallet that fills its accounts a moment after approving is asked again every 500 ms', async () => {
    expect([WALLET_LOOKUP_ATTEMPTS, WALLET_LOOKUP_INTERVAL_MS]).toEqual([10, 500])
    const fake = fakeEthereumWallet({ accounts: [] })
    const key = installEthereum(fake)
    const { wallets } = create()
    const connected = track(wallets.connect(key, 'ethereum'))
    await vi.advanceTimersByTimeAsync(0)
    expect(fake.methods()).toEqual(['eth_requestAccounts'])
    await vi.advanceTimersByTimeAsync(499)
    expect(fake.methods()).toHaveLength(1)
    await vi.advanceTimersByTimeAsync(1)
    expect(fake.methods()).toEqual(['eth_requestAccounts', 'eth_accounts'])
    fake.wallet.accounts = [VITALIK]
    await vi.advanceTimersByTimeAsync(500)
    expect(connected.settled).toBe(true)
    expect(connected.value).toMatchObject({ address: VITALIK_CHECKSUMMED })
    expect(fake.methods()).toEqual([
      'eth_requestAccounts',
      'eth_accounts',
      'eth_accounts',
      'eth_chainId',
    ])
  })

  it('gives up on the accounts at the 10th lookup, 4500 ms after the first', async () => {
    const fake = fakeEthereumWallet({ accounts: [] })
    const key = installEthereum(fake)
    const { wallets } = create()
    const connected = track(wallets.connect(key, 'ethereum'))
    await vi.advanceTimersByTimeAsync(9 * WALLET_LOOKUP_INTERVAL_MS - 1)
    expect(connected.settled).toBe(false)
    await vi.advanceTimersByTimeAsync(1)
    expect(connected.value).toMatchObject({ code: 'WALLET_NO_ACCOUNTS' })
    expect(fake.methods()).toHaveLength(WALLET_LOOKUP_ATTEMPTS)
  })

  it('asks for the chain again while the wallet has none, then gives up after 10 lookups', async () => {
    const fake = fakeEthereumWallet()
    // No chain yet (null, then nothing), then mainnet.
    const chainIdAnswers = [null, null]
    const answer = fake.request.getMockImplementation()
    fake.request.mockImplementation(async (args) =>
      args.method === 'eth_chainId' && chainIdAnswers.length
        ? (chainIdAnswers.shift() ?? null)
        : (answer?.(args) ?? null),
    )
    const key = installEthereum(fake)
    const { wallets } = create()
    const connected = track(wallets.connect(key, 'ethereum'))
    await vi.advanceTimersByTimeAsync(2 * WALLET_LOOKUP_INTERVAL_MS - 1)
    expect(connected.settled).toBe(false)
    await vi.advanceTimersByTimeAsync(1)
    expect((connected.value as ConnectedEthereumExternalWallet).chainId).toBe('eip155:1')

    const silent = fakeEthereumWallet()
    silent.request.mockImplementation(async ({ method }) =>
      method === 'eth_chainId' ? null : [VITALIK],
    )
    const other = installEthereum(silent, { uuid: 'uuid-rabby', name: 'Rabby', rdns: 'io.rabby' })
    const failed = track(wallets.connect(other, 'ethereum'))
    await vi.advanceTimersByTimeAsync(9 * WALLET_LOOKUP_INTERVAL_MS)
    expect(failed.value).toMatchObject({ code: 'WALLET_LOGIN_FAILED' })
    expect(silent.methods().filter((m) => m === 'eth_chainId')).toHaveLength(10)
  })
})

describe('wallet RPC timeout: 120000 ms, overridable per wallet (spec 01 §9)', () => {
  it("a wallet that never answers fails after 120 s with 'Wallet timeout'", async () => {
    const fake = fakeEthereumWallet()
    fake.request.mockImplementation(() => new Promise(() => {}))
    const key = installEthereum(fake)
    const { wallets } = create()
    const connected = track(wallets.connect(key, 'ethereum'))
    await vi.advanceTimersByTimeAsync(WALLET_RPC_TIMEOUT_MS - 1)
    expect(connected.settled).toBe(false)
    await vi.advanceTimersByTimeAsync(1)
    expect(connected.value).toMatchObject({
      code: 'WALLET_REQUEST_TIMEOUT',
      message: 'Wallet timeout',
      userMessage: { title: 'Wallet request timed out', detail: 'Please try connecting again.' },
    })
  })

  it('rpcTimeoutMsByWallet sets one wallet’s timeout; the others keep rpcTimeoutMs', async () => {
    const metamask = fakeEthereumWallet()
    const rabby = fakeEthereumWallet()
    for (const fake of [metamask, rabby])
      fake.request.mockImplementation(() => new Promise(() => {}))
    const mmKey = installEthereum(metamask)
    const rabbyKey = installEthereum(rabby, { uuid: 'uuid-rabby', name: 'Rabby', rdns: 'io.rabby' })
    const { wallets } = create({ rpcTimeoutMs: 5_000, rpcTimeoutMsByWallet: { metamask: 1_000 } })
    const mm = track(wallets.connect(mmKey, 'ethereum'))
    const other = track(wallets.connect(rabbyKey, 'ethereum'))
    await vi.advanceTimersByTimeAsync(1_000)
    expect(mm.value).toMatchObject({ code: 'WALLET_REQUEST_TIMEOUT' })
    expect(other.settled).toBe(false)
    await vi.advanceTimersByTimeAsync(4_000)
    expect(other.value).toMatchObject({ code: 'WALLET_REQUEST_TIMEOUT' })
  })

  it('a connected wallet carries its timeout, for the sign-in that follows', async () => {
    const key = installEthereum(fakeEthereumWallet())
    const { wallets } = create({ rpcTimeoutMsByWallet: { metamask: 30_000 } })
    const wallet = (await wallets.connect(key, 'ethereum')) as ConnectedEthereumExternalWallet
    expect(wallet.rpcTimeoutMs).toBe(30_000)
  })
})
