// @vitest-environment node
import { ProviderRpcError } from '@latchkey/core'
import {
  type Chain,
  createPublicClient,
  http,
  parseEther,
  SwitchChainError,
  UserRejectedRequestError,
  verifyMessage,
} from 'viem'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ChainNotConfiguredError, createConfig, http as wagmiHttp } from 'wagmi'
import {
  connect,
  disconnect,
  getConnection,
  sendTransaction,
  signMessage,
  switchChain,
  waitForTransactionReceipt,
} from 'wagmi/actions'
import { type LatchkeyEthereumProvider, latchkeyConnector } from './latchkeyConnector.ts'
import {
  type AnvilNode,
  anvilChain,
  devAccount,
  embeddedAnvilWallet,
  startAnvil,
} from './test/anvil-wallet.ts'

// wagmi's own actions through the connector, against two real Anvil nodes:
// the wallet under it is core's embedded EIP-1193 provider, its enclave a
// function holding Anvil's dev key (src/test/anvil-wallet.ts).
const RECIPIENT = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8'
let first: AnvilNode
let second: AnvilNode
let chainA: Chain
let chainB: Chain

beforeAll(async () => {
  ;[first, second] = await Promise.all([startAnvil(), startAnvil({ chainId: 31338 })])
  chainA = anvilChain(first, 'Anvil A')
  chainB = anvilChain(second, 'Anvil B')
})
afterAll(() => Promise.all([first?.stop(), second?.stop()]))

/** A wagmi config on `chains` (storage off: nothing outlives the test). */
function wagmiConfig(chains: readonly [Chain, ...Chain[]]) {
  return createConfig({
    chains,
    transports: Object.fromEntries(chains.map((c) => [c.id, wagmiHttp(c.rpcUrls.default.http[0])])),
    storage: null,
    multiInjectedProviderDiscovery: false,
  })
}

const rejectedAs = async (promise: Promise<unknown>) => {
  const error = await promise.then(
    () => null,
    (e: unknown) => e as Error & { walk?: (fn: (e: unknown) => boolean) => unknown },
  )
  expect(error).not.toBeNull()
  return error!
}

describe('wagmi actions through the Latchkey connector (embedded wallet, Anvil)', () => {
  it('connects, reports the account, signs a message that recovers to it, sends a mined transaction, disconnects', async () => {
    const config = wagmiConfig([chainA, chainB])
    const wallet = embeddedAnvilWallet([chainA, chainB])
    const connected = await connect(config, { connector: latchkeyConnector({ wallet }) })
    expect(connected).toEqual({ accounts: [devAccount.address], chainId: chainA.id })
    const connection = getConnection(config)
    expect(connection).toMatchObject({
      status: 'connected',
      address: devAccount.address,
      chainId: chainA.id,
    })
    expect(connection.connector).toMatchObject({
      type: 'latchkey',
      id: 'latchkey',
      name: 'Latchkey embedded wallet',
    })

    const message = 'Hello from wagmi'
    const signature = await signMessage(config, { message })
    expect(await verifyMessage({ address: devAccount.address, message, signature })).toBe(true)

    const chain = createPublicClient({ chain: chainA, transport: http() })
    const before = await chain.getBalance({ address: RECIPIENT })
    const hash = await sendTransaction(config, { to: RECIPIENT, value: parseEther('0.001') })
    const receipt = await waitForTransactionReceipt(config, { hash })
    expect(receipt).toMatchObject({ status: 'success', from: devAccount.address.toLowerCase() })
    expect((await chain.getBalance({ address: RECIPIENT })) - before).toBe(parseEther('0.001'))

    await disconnect(config)
    expect(getConnection(config)).toMatchObject({ status: 'disconnected', address: undefined })
  })

  it('switches chains within the config (and sends there); other chains fail with SwitchChainError', async () => {
    // The wagmi config lists A and B; the Latchkey app lists A, B and the second node's id again is fine.
    const config = wagmiConfig([chainA, chainB])
    const wallet = embeddedAnvilWallet([chainA, chainB])
    await connect(config, { connector: latchkeyConnector({ wallet }) })

    expect(await switchChain(config, { chainId: chainB.id })).toMatchObject({ id: chainB.id })
    expect(getConnection(config).chainId).toBe(chainB.id)
    const hash = await sendTransaction(config, { to: RECIPIENT, value: 1n, chainId: chainB.id })
    const receipt = await waitForTransactionReceipt(config, { hash, chainId: chainB.id })
    expect(receipt.status).toBe('success')

    // A chain the wagmi config does not list: refused before the wallet is asked.
    const unlisted = await rejectedAs(switchChain(config, { chainId: 1 } as never))
    expect(unlisted).toBeInstanceOf(SwitchChainError)
    expect(unlisted.message).toContain("Chain 1 is not one of the wagmi config's chains.")
    expect(unlisted.walk?.((e) => e instanceof ChainNotConfiguredError)).toBeInstanceOf(
      ChainNotConfiguredError,
    )
    expect(getConnection(config).chainId).toBe(chainB.id)
    await disconnect(config)
  })

  it('a chain in the wagmi config that the Latchkey app does not list: 4902 becomes SwitchChainError', async () => {
    const config = wagmiConfig([chainA, chainB])
    const wallet = embeddedAnvilWallet([chainA])
    await connect(config, { connector: latchkeyConnector({ wallet }) })
    const error = await rejectedAs(switchChain(config, { chainId: chainB.id }))
    expect(error).toBeInstanceOf(SwitchChainError)
    expect(error.message).toContain(`Chain ID ${chainB.id} is not supported by this app.`)
    expect(getConnection(config).chainId).toBe(chainA.id)
    await disconnect(config)
  })

  it('connect moves the wallet onto the config chains (or the asked one)', async () => {
    // The Latchkey app's default chain (A) is not in this wagmi config: B is its first.
    const config = wagmiConfig([chainB])
    const wallet = embeddedAnvilWallet([chainA, chainB])
    const result = await connect(config, { connector: latchkeyConnector({ wallet }) })
    expect(result.chainId).toBe(chainB.id)
    expect(await wallet.getEthereumProvider().request({ method: 'eth_chainId' })).toBe('0x7a6a')
    await disconnect(config)

    const both = wagmiConfig([chainA, chainB])
    const asked = await connect(both, {
      connector: latchkeyConnector({ wallet: embeddedAnvilWallet([chainA, chainB]) }),
      chainId: chainB.id,
    })
    expect(asked.chainId).toBe(chainB.id)
    await disconnect(both)
  })

  it("connecting never switches a user's external wallet unless connect names a chain", async () => {
    const config = wagmiConfig([chainB])
    // A real EIP-1193 provider (on chain A) presented as an injected wallet.
    const external = { ...embeddedAnvilWallet([chainA, chainB]), connectorType: 'injected' }
    const result = await connect(config, { connector: latchkeyConnector({ wallet: external }) })
    expect(result.chainId).toBe(chainA.id)
    expect(await external.getEthereumProvider().request({ method: 'eth_chainId' })).toBe(
      `0x${chainA.id.toString(16)}`,
    )
    await disconnect(config)
  })

  it('closing the confirm screen (4001) and a Latchkey rejection code surface as UserRejectedRequestError', async () => {
    const config = wagmiConfig([chainA])
    // What the React confirm screen does when the user closes it, then what a cancelled MFA does.
    const closed = embeddedAnvilWallet([chainA], {
      onTransaction: async () => {
        throw new ProviderRpcError(4001, 'The user rejected the request.')
      },
    })
    await connect(config, { connector: latchkeyConnector({ wallet: closed }) })
    const error = await rejectedAs(sendTransaction(config, { to: RECIPIENT, value: 1n }))
    expect(error.walk?.((e) => e instanceof UserRejectedRequestError)).toBeInstanceOf(
      UserRejectedRequestError,
    )
    await disconnect(config)

    const { LatchkeyError } = await import('@latchkey/core')
    const cancelled = embeddedAnvilWallet([chainA], {
      onTransaction: async () => {
        throw new LatchkeyError('MFA_CANCELED')
      },
    })
    await connect(config, { connector: latchkeyConnector({ wallet: cancelled }) })
    const mfa = await rejectedAs(sendTransaction(config, { to: RECIPIENT, value: 1n }))
    const rejection = mfa.walk?.((e) => e instanceof UserRejectedRequestError) as Error
    expect(rejection).toBeInstanceOf(UserRejectedRequestError)
    await disconnect(config)
  })

  it('follows an external wallet provider: accountsChanged, chainChanged, and [] disconnects', async () => {
    // A provider with EIP-1193 events (an external wallet's), in front of the embedded one.
    const embedded = embeddedAnvilWallet([chainA, chainB]).getEthereumProvider()
    const events = new EventTarget()
    const handlers = new Map<(...args: never[]) => void, EventListener>()
    const provider: LatchkeyEthereumProvider = {
      request: (args) => embedded.request(args),
      on(event, listener) {
        const handler = (e: Event) => (listener as (d: unknown) => void)((e as CustomEvent).detail)
        handlers.set(listener, handler)
        events.addEventListener(event, handler)
      },
      removeListener(event, listener) {
        events.removeEventListener(event, handlers.get(listener)!)
      },
    }
    const emit = (event: string, detail: unknown) =>
      events.dispatchEvent(new CustomEvent(event, { detail }))
    const config = wagmiConfig([chainA, chainB])
    const connector = latchkeyConnector({
      wallet: {
        address: devAccount.address,
        connectorType: 'injected',
        walletClientType: 'metamask',
        meta: { name: 'MetaMask', icon: null, id: 'io.metamask' },
        getEthereumProvider: () => provider,
      },
    })
    await connect(config, { connector })
    expect(getConnection(config).connector).toMatchObject({
      id: 'latchkey:io.metamask',
      name: 'MetaMask',
    })
    emit('chainChanged', '0x7a6a')
    expect(getConnection(config).chainId).toBe(chainB.id)
    emit('accountsChanged', [RECIPIENT.toLowerCase()])
    expect(getConnection(config).address).toBe(RECIPIENT)
    emit('accountsChanged', [])
    expect(getConnection(config).status).toBe('disconnected')
    expect(handlers.size).toBe(3)
  })
})
