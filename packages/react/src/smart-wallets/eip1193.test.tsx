import type { SmartWalletConfig } from '@latchkey/protocol/schemas'
import { act, cleanup, fireEvent, screen, waitFor } from '@testing-library/react'
import {
  type Address,
  createWalletClient,
  custom,
  defineChain,
  type Hex,
  type TransactionReceipt,
} from 'viem'
import {
  getBalance,
  getCallsStatus,
  getCapabilities,
  getChainId,
  sendCalls,
  sendTransaction,
  signMessage,
  switchChain,
} from 'viem/actions'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { type UseSmartWalletsReturnType, useSmartWallets } from '../hooks/useSmartWallets.ts'
import { appConfig } from '../test/fake-server.ts'
import { renderWithWallets } from '../test/wallet.tsx'
import type { SmartWalletChain } from './chains.ts'
import type { SentSmartWalletCalls, SmartWalletCall, SmartWalletHandle } from './types.ts'

// client.getEthereumProvider() driven by viem's own EIP-5792 and wallet
// actions, over a stand-in for core's smart wallet (as useSmartWallets.test
// does): the real confirm and sign screens, and what reaches the wallet.

const SMART: Address = '0x5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a'
const OTHER: Address = '0x9999999999999999999999999999999999999999'
const TO: Address = '0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC'
const USER_OPERATION: Hex = `0x${'ef'.repeat(32)}`
const TRANSACTION: Hex = `0x${'ab'.repeat(32)}`
const SIGNATURE: Hex = `0x${'64'.repeat(65)}`
const RECEIPT = {
  blockHash: `0x${'bb'.repeat(32)}`,
  blockNumber: 7n,
  gasUsed: 21_000n,
  logs: [],
  status: 'success',
  transactionHash: TRANSACTION,
} as unknown as TransactionReceipt

const local = (id: number, name: string) =>
  defineChain({
    id,
    name,
    nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
    rpcUrls: { default: { http: [`http://node-${id}.test`] } },
  })
const anvil = local(31337, 'Anvil')
const baseSepolia = local(84532, 'Base Sepolia')

const handles = vi.hoisted(() => new Map<number, unknown>())
vi.mock('./create.ts', () => ({
  createSmartWallet: async (_: unknown, p: { chain: SmartWalletChain }) =>
    handles.get(p.chain.chain.id),
}))

function fakeHandle(chain: typeof anvil, sponsored: boolean) {
  const handle = {
    address: SMART,
    type: 'safe',
    version: '1.4.1',
    chain,
    sponsored,
    isDeployed: async (): Promise<boolean> => true,
    prepareCalls: vi.fn(async (_: readonly SmartWalletCall[]) => ({
      userOperation: { callGasLimit: 50_000n },
      maxCost: 3_000_000_000_000n,
      sponsored,
    })),
    sendCalls: vi.fn(
      async (_: readonly SmartWalletCall[]): Promise<SentSmartWalletCalls> => ({
        userOperationHash: USER_OPERATION,
        transactionHash: TRANSACTION,
        receipt: RECEIPT,
      }),
    ),
    signMessage: vi.fn(async () => SIGNATURE),
    signTypedData: vi.fn(async () => SIGNATURE),
  } satisfies SmartWalletHandle
  handles.set(chain.id, handle)
  return handle
}

// The chains' nodes: a balance of 1 ETH; nothing else (the scan says so plainly).
beforeEach(() => {
  handles.clear()
  vi.stubGlobal('fetch', async (_: string, init: RequestInit) => {
    const { id, method } = JSON.parse(String(init.body)) as { id: number; method: string }
    const body =
      method === 'eth_getBalance'
        ? { jsonrpc: '2.0', id, result: '0xde0b6b3a7640000' }
        : { jsonrpc: '2.0', id, error: { code: -32601, message: 'Method not found' } }
    return new Response(JSON.stringify(body), { headers: { 'content-type': 'application/json' } })
  })
})
afterEach(() => {
  cleanup()
  vi.unstubAllGlobals()
  vi.restoreAllMocks()
})

const seen: { hook?: UseSmartWalletsReturnType } = {}
function Probe() {
  seen.hook = useSmartWallets()
  return null
}

const SAFE_ON_BOTH: SmartWalletConfig = {
  type: 'safe',
  version: '1.4.1',
  chains: [
    { chain_id: 31337, sponsored: true },
    { chain_id: 84532, sponsored: false },
  ],
}

/** The smart wallet's provider behind a viem wallet client for the smart account on Anvil. */
async function setup() {
  vi.spyOn(console, 'warn').mockImplementation(() => {})
  const rendered = renderWithWallets(<Probe />, { chains: ['ethereum'] })
  vi.spyOn(rendered.client, 'getAppConfig').mockResolvedValue(
    appConfig({ smart_wallet_config: SAFE_ON_BOTH }),
  )
  await act(async () => {
    rendered.instance.setHostConfig({ chains: [anvil, baseSepolia] })
    await rendered.instance.loadAppConfig()
  })
  await waitFor(() => expect(seen.hook?.client).toBeDefined())
  const client = seen.hook?.client as NonNullable<UseSmartWalletsReturnType['client']>
  const provider = client.getEthereumProvider()
  const wallet = createWalletClient({ account: SMART, chain: anvil, transport: custom(provider) })
  return { client, provider, wallet }
}

// The modal's screens load on first use; a busy machine can take over the default second.
const SLOW = { timeout: 4_000 }
const button = (name: string) => screen.getByRole('button', { name }) as HTMLButtonElement
async function press(name: string) {
  await waitFor(() => expect(button(name).disabled).toBe(false), SLOW)
  fireEvent.click(button(name))
}

/** The EIP-1193 / EIP-5792 code of a refusal, through viem's wrapping errors. */
async function codeOf(promise: Promise<unknown>): Promise<number | undefined> {
  try {
    await promise
  } catch (error) {
    for (let e = error as { code?: unknown; cause?: unknown } | undefined; e; e = e.cause as never)
      if (typeof e.code === 'number') return e.code
    throw error
  }
  throw new Error('expected a refusal')
}

/** Starts `run` inside act (it opens a screen) and hands back its promise. */
function started<T>(run: () => Promise<T>): Promise<T> {
  let result = Promise.resolve() as Promise<T>
  act(() => {
    result = run()
  })
  return result
}

describe('the smart wallet EIP-1193 provider', () => {
  it('a batch of two (viem sendCalls) is ONE sendCalls of both calls; its status goes 100 → 200 with the receipt', async () => {
    const handle = fakeHandle(anvil, true)
    const { wallet } = await setup()
    const sent = started(() =>
      sendCalls(wallet, {
        id: 'batch-1',
        calls: [
          { to: TO, value: 1n },
          { to: SMART, data: '0x1234' },
        ],
      }),
    )
    expect(await screen.findByRole('heading', { name: /\(1 \/ 2\)/ }, SLOW)).toBeTruthy()
    // Received, on the confirm screen, not yet on chain.
    expect(await getCallsStatus(wallet, { id: 'batch-1' })).toMatchObject({
      status: 'pending',
      statusCode: 100,
      receipts: [],
    })
    await press('Continue')
    await press('Approve')
    await press('All Done')
    expect(await sent).toEqual({ id: 'batch-1' })
    expect(handle.sendCalls).toHaveBeenCalledOnce()
    expect(handle.sendCalls).toHaveBeenCalledWith([
      { to: TO, value: 1n },
      { to: SMART, value: 0n, data: '0x1234' },
    ])
    expect(await getCallsStatus(wallet, { id: 'batch-1' })).toEqual({
      version: '2.0.0',
      id: 'batch-1',
      chainId: 31337,
      atomic: true,
      status: 'success',
      statusCode: 200,
      receipts: [
        {
          blockHash: RECEIPT.blockHash,
          blockNumber: 7n,
          gasUsed: 21_000n,
          logs: [],
          status: 'success',
          transactionHash: TRANSACTION,
        },
      ],
    })
  })

  it("without an app id, the id is the user operation's hash; calls reverted inside it are status 500", async () => {
    const handle = fakeHandle(anvil, true)
    const { wallet } = await setup()
    const first = started(() => sendCalls(wallet, { calls: [{ to: TO }] }))
    await press('Approve')
    await press('All Done')
    expect(await first).toEqual({ id: USER_OPERATION })
    expect(await getCallsStatus(wallet, { id: USER_OPERATION })).toMatchObject({
      statusCode: 200,
    })

    const reverted: Hex = `0x${'dd'.repeat(32)}`
    handle.sendCalls.mockResolvedValueOnce({
      userOperationHash: reverted,
      transactionHash: TRANSACTION,
      receipt: RECEIPT,
      success: false,
    })
    const second = started(() => sendCalls(wallet, { calls: [{ to: TO }] }))
    await press('Approve')
    await screen.findByRole('heading', { name: 'Transaction failed' }, SLOW)
    fireEvent.click(screen.getByRole('button', { name: /close/i }))
    expect(await second).toEqual({ id: reverted })
    const status = await getCallsStatus(wallet, { id: reverted })
    expect(status).toMatchObject({ status: 'failure', statusCode: 500, atomic: true })
    expect(status.receipts?.[0]).toMatchObject({ status: 'reverted', transactionHash: TRANSACTION })
  })

  it('capabilities: atomic on every smart-wallet chain, a paymaster where the app pays', async () => {
    fakeHandle(anvil, true)
    const { wallet } = await setup()
    expect(await getCapabilities(wallet)).toEqual({
      31337: { atomic: { status: 'supported' }, paymasterService: { supported: true } },
      84532: { atomic: { status: 'supported' }, paymasterService: { supported: false } },
    })
    expect(await getCapabilities(wallet, { chainId: 84532 })).toEqual({
      atomic: { status: 'supported' },
      paymasterService: { supported: false },
    })
  })

  it('refused: another chain (5710), an unknown required capability (5700), another from (4100), an unknown id (5730)', async () => {
    const handle = fakeHandle(anvil, true)
    const { wallet } = await setup()
    const calls = [{ to: TO }]
    expect(await codeOf(sendCalls(wallet, { calls, chain: baseSepolia }))).toBe(5710)
    expect(screen.queryByRole('heading', { name: 'Confirm transaction' })).toBeNull()
    expect(
      await codeOf(sendCalls(wallet, { calls, capabilities: { flashLoan: { amount: '1' } } })),
    ).toBe(5700)
    // The same capability marked optional is ignored.
    const optional = started(() =>
      sendCalls(wallet, { calls, capabilities: { flashLoan: { optional: true } } }),
    )
    await press('Approve')
    await press('All Done')
    expect(await optional).toEqual({ id: USER_OPERATION })
    expect(await codeOf(sendCalls(wallet, { account: OTHER, calls }))).toBe(4100)
    expect(await codeOf(getCallsStatus(wallet, { id: `0x${'00'.repeat(32)}` }))).toBe(5730)
    expect(await codeOf(signMessage(wallet, { account: OTHER, message: 'hello' }))).toBe(4100)
    expect(handle.sendCalls).toHaveBeenCalledOnce()
  })

  it('a paymaster service required on a chain the app does not pay for is refused (5700)', async () => {
    fakeHandle(anvil, true)
    const handle = fakeHandle(baseSepolia, false)
    const { wallet } = await setup()
    await switchChain(wallet, { id: 84532 })
    const capabilities = { paymasterService: { url: 'https://paymaster.test' } }
    expect(
      await codeOf(sendCalls(wallet, { chain: baseSepolia, calls: [{ to: TO }], capabilities })),
    ).toBe(5700)
    expect(handle.sendCalls).not.toHaveBeenCalled()
  })

  it('eth_sendTransaction: one call through the confirm screen, answering the bundle transaction hash', async () => {
    const handle = fakeHandle(anvil, true)
    const { wallet } = await setup()
    const hash = started(() => sendTransaction(wallet, { to: TO, value: 1n }))
    await press('Approve')
    await press('All Done')
    expect(await hash).toBe(TRANSACTION)
    expect(handle.sendCalls).toHaveBeenCalledWith([{ to: TO, value: 1n }])
    expect(await codeOf(sendTransaction(wallet, { account: OTHER, to: TO }))).toBe(4100)
  })

  it("signMessage: the sign screen for the smart account's text, answering its signature", async () => {
    const handle = fakeHandle(anvil, true)
    const { wallet } = await setup()
    const signature = started(() => signMessage(wallet, { message: 'Hello from a Safe' }))
    expect(await screen.findByText('Hello from a Safe', {}, SLOW)).toBeTruthy()
    await press('Sign and continue')
    expect(await signature).toBe(SIGNATURE)
    expect(handle.signMessage).toHaveBeenCalledWith('Hello from a Safe')
  })

  it('wallet_switchEthereumChain moves every hook; a chain without smart wallets is 4902; reads go to the chain node', async () => {
    fakeHandle(anvil, true)
    fakeHandle(baseSepolia, false)
    const { wallet } = await setup()
    expect(await getChainId(wallet)).toBe(31337)
    await act(() => switchChain(wallet, { id: 84532 }))
    expect(await getChainId(wallet)).toBe(84532)
    expect(seen.hook?.client?.chain.id).toBe(84532)
    expect(await codeOf(switchChain(wallet, { id: 1 }))).toBe(4902)
    expect(await getBalance(wallet, { address: SMART })).toBe(10n ** 18n)
  })
})
