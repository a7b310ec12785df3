import type { SmartWalletConfig } from '@latchkey/protocol/schemas'
import { act, cleanup, fireEvent, screen, waitFor } from '@testing-library/react'
import { type Address, defineChain, type Hex, type TransactionReceipt } from 'viem'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import type { SmartWalletChain } from '../smart-wallets/chains.ts'
import { EIP7702_UPGRADE_NOTE } from '../smart-wallets/smart-wallet-request.ts'
import type {
  SentSmartWalletCalls,
  SmartWalletCall,
  SmartWalletHandle,
} from '../smart-wallets/types.ts'
import { appConfig } from '../test/fake-server.ts'
import { ETH_ADDRESS, renderWithWallets } from '../test/wallet.tsx'
import { type UseSmartWalletsReturnType, useSmartWallets } from './useSmartWallets.ts'

// useSmartWallets() over a stand-in for core's createEmbeddedSmartWallet
// (core's own tests send real user operations; e2e/smart-wallet.test.ts the
// whole stack): the hook builds one wallet per chain, and its client opens
// the real confirm and sign screens.

const SMART: Address = '0x5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a'
const TO: Address = '0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC'
const USER_OPERATION: Hex = `0x${'ef'.repeat(32)}`
const TRANSACTION: Hex = `0x${'ab'.repeat(32)}`
const SIGNATURE_6492: Hex = `0x${'64'.repeat(40)}6492649264926492649264926492649264926492649264926492649264926492`

const local = (id: number, name: string) =>
  defineChain({
    id,
    name,
    nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
    rpcUrls: { default: { http: [`http://node-${id}.test`] } },
  })
const anvil = local(31337, 'Anvil')
const baseSepolia = { ...local(84532, 'Base Sepolia'), testnet: true }

const created = vi.hoisted(() => [] as Array<{ owner: string; chainId: number }>)
const handles = vi.hoisted(() => new Map<number, unknown>())
vi.mock('../smart-wallets/create.ts', () => ({
  createSmartWallet: async (
    _: unknown,
    p: { owner: { address: string }; chain: SmartWalletChain },
  ) => {
    created.push({ owner: p.owner.address, chainId: p.chain.chain.id })
    return handles.get(p.chain.chain.id)
  },
}))

function fakeHandle(chain: typeof anvil, sponsored: boolean) {
  const handle = {
    address: SMART,
    type: 'safe',
    version: '1.4.1',
    chain,
    sponsored,
    isDeployed: async (): Promise<boolean> => false,
    prepareCalls: vi.fn(async (_: readonly SmartWalletCall[]) => ({
      userOperation: { callGasLimit: 50_000n, verificationGasLimit: 400_000n },
      maxCost: 3_000_000_000_000n,
      sponsored,
    })),
    sendCalls: vi.fn(
      async (_: readonly SmartWalletCall[]): Promise<SentSmartWalletCalls> => ({
        userOperationHash: USER_OPERATION,
        transactionHash: TRANSACTION,
        receipt: { transactionHash: TRANSACTION, status: 'success' } as TransactionReceipt,
      }),
    ),
    signMessage: vi.fn(async () => SIGNATURE_6492),
    signTypedData: vi.fn(async () => SIGNATURE_6492),
  } satisfies SmartWalletHandle
  handles.set(chain.id, handle)
  return handle
}

// The chains' nodes: a balance of 1 ETH, and no eth_simulateV1 (the scan says so plainly).
beforeEach(() => {
  created.length = 0
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
const hook = () => seen.hook as UseSmartWalletsReturnType

async function setup(config: SmartWalletConfig | null) {
  const warn = vi.spyOn(console, 'warn').mockImplementation(() => {})
  const rendered = renderWithWallets(
    <>
      <Probe />
      <Probe />
    </>,
    { chains: ['ethereum'] },
  )
  vi.spyOn(rendered.client, 'getAppConfig').mockResolvedValue(
    appConfig({ smart_wallet_config: config }),
  )
  await act(async () => {
    rendered.instance.setHostConfig({ chains: [anvil, baseSepolia] })
    await rendered.instance.loadAppConfig()
  })
  return { ...rendered, warn }
}

const SAFE_ON_BOTH: SmartWalletConfig = {
  type: 'safe',
  version: '1.4.1',
  chains: [
    { chain_id: 31337, sponsored: true },
    { chain_id: 84532, sponsored: false },
  ],
}

const button = (name: string) => screen.getByRole('button', { name }) as HTMLButtonElement
async function press(name: string) {
  await waitFor(() => expect(button(name).disabled).toBe(false))
  fireEvent.click(button(name))
}
const feeRow = () =>
  Array.from(document.querySelectorAll('.lk-tx-row')).find(
    (row) => row.querySelector('dt')?.textContent === 'Estimated fee',
  )?.textContent

describe('useSmartWallets', () => {
  it('no smart wallets in the app config: no client, nothing created', async () => {
    await setup(null)
    expect(hook().client).toBeUndefined()
    expect(created).toEqual([])
    await expect(hook().getClientForChain({ id: 31337 })).rejects.toMatchObject({
      code: 'UNSUPPORTED_CHAIN',
    })
  })

  it("one wallet per owner and chain, however many components ask; the first chain's by default", async () => {
    fakeHandle(anvil, true)
    await setup(SAFE_ON_BOTH)
    await waitFor(() => expect(hook().client).toBeDefined())
    expect(created).toEqual([{ owner: ETH_ADDRESS, chainId: 31337 }])
    expect(hook().client).toMatchObject({ account: { address: SMART }, sponsored: true })
    expect(hook().client?.chain.id).toBe(31337)
  })

  it("a batch of two: '(1 / 2)', '(2 / 2)', 'Sponsored', then ONE user operation with both calls", async () => {
    const handle = fakeHandle(anvil, true)
    await setup(SAFE_ON_BOTH)
    await waitFor(() => expect(hook().client).toBeDefined())
    let result: Promise<unknown> = Promise.resolve()
    act(() => {
      result = (hook().client as NonNullable<UseSmartWalletsReturnType['client']>).sendCalls([
        { to: TO, value: 0n },
        { to: SMART, data: '0x' },
      ])
    })
    expect(await screen.findByRole('heading', { name: /\(1 \/ 2\)/ })).toBeTruthy()
    // The wallet card shows the smart account, not the owner.
    expect(document.body.textContent).toContain(SMART.slice(0, 6))
    await waitFor(() => expect(feeRow()).toContain('Sponsored'))
    await press('Continue')
    await screen.findByRole('heading', { name: /\(2 \/ 2\)/ })
    expect(handle.sendCalls).not.toHaveBeenCalled()
    await press('Approve')
    await press('All Done')
    await expect(result).resolves.toEqual({
      userOperationHash: USER_OPERATION,
      transactionHash: TRANSACTION,
      receipt: expect.objectContaining({ status: 'success' }),
    })
    expect(handle.sendCalls).toHaveBeenCalledOnce()
    expect(handle.sendCalls).toHaveBeenCalledWith([
      { to: TO, value: 0n },
      { to: SMART, value: 0n },
    ])
    // Both steps were estimated as the whole batch.
    expect(handle.prepareCalls).toHaveBeenCalledWith([{ to: TO, value: 0n }, { to: SMART }])
  })

  it('an EIP-7702 wallet: the first transaction says it upgrades the wallet, later ones do not', async () => {
    const handle = { ...fakeHandle(anvil, true), type: 'simple_7702' as const, version: '0.8' }
    let upgraded = false
    handle.isDeployed = async () => upgraded
    handles.set(anvil.id, handle)
    await setup({ ...SAFE_ON_BOTH, type: 'simple_7702', version: '0.8' })
    await waitFor(() => expect(hook().client).toBeDefined())
    const client = hook().client as NonNullable<UseSmartWalletsReturnType['client']>
    const send = async () => {
      let result: Promise<unknown> = Promise.resolve()
      act(() => {
        result = client.sendTransaction({ to: TO, value: 0n })
      })
      await screen.findByRole('heading', { name: 'Confirm transaction' })
      const upgradeLine = screen.queryByText(EIP7702_UPGRADE_NOTE)
      await press('Approve')
      await press('All Done')
      await result
      return upgradeLine
    }
    expect(await send()).not.toBeNull()
    upgraded = true
    expect(await send()).toBeNull()
  })

  it("calls that revert inside the operation: 'Transaction failed' with the bundle's hash", async () => {
    const handle = fakeHandle(anvil, true)
    handle.sendCalls.mockResolvedValueOnce({
      userOperationHash: USER_OPERATION,
      transactionHash: TRANSACTION,
      // The bundle transaction succeeds; the operation's calls did not.
      receipt: { transactionHash: TRANSACTION, status: 'success' } as TransactionReceipt,
      success: false,
    })
    await setup(SAFE_ON_BOTH)
    await waitFor(() => expect(hook().client).toBeDefined())
    let result: Promise<unknown> = Promise.resolve()
    act(() => {
      result = (hook().client as NonNullable<UseSmartWalletsReturnType['client']>)
        .sendTransaction({ to: TO, value: 0n })
        .catch((error: unknown) => error)
    })
    await press('Approve')
    expect(await screen.findByRole('heading', { name: 'Transaction failed' })).toBeTruthy()
    expect(screen.getByTestId('lk-tx-hash').textContent).toContain('0xabab')
    fireEvent.click(screen.getByRole('button', { name: /close/i }))
    expect(await result).toMatchObject({ code: 'TRANSACTION_REVERTED' })
  })

  it("not sponsored: the fee is the operation's max cost", async () => {
    fakeHandle(baseSepolia, false)
    await setup({ ...SAFE_ON_BOTH, chains: [{ chain_id: 84532, sponsored: false }] })
    await waitFor(() => expect(hook().client).toBeDefined())
    act(() => {
      void hook().client?.sendTransaction({ to: TO, value: 1n })
    })
    await waitFor(() => expect(feeRow()).toContain('0.000003 ETH'))
    expect(feeRow()).not.toContain('Sponsored')
  })

  it('showWalletUIs false: no screen; the hash of the one operation', async () => {
    const handle = fakeHandle(anvil, true)
    const { instance } = await setup(SAFE_ON_BOTH)
    const open = vi.spyOn(instance, 'openWalletScreen')
    await waitFor(() => expect(hook().client).toBeDefined())
    const hash = await hook().client?.sendTransaction(
      { to: TO, value: 0n },
      { uiOptions: { showWalletUIs: false } },
    )
    expect(hash).toBe(TRANSACTION)
    expect(open).not.toHaveBeenCalled()
    expect(handle.sendCalls).toHaveBeenCalledWith([{ to: TO, value: 0n }])
  })

  it("signMessage: the sign screen for the smart account, answering the account's ERC-6492 signature", async () => {
    const handle = fakeHandle(anvil, true)
    await setup(SAFE_ON_BOTH)
    await waitFor(() => expect(hook().client).toBeDefined())
    let signature: Promise<Hex> = Promise.resolve('0x')
    act(() => {
      signature = (hook().client as NonNullable<UseSmartWalletsReturnType['client']>).signMessage({
        message: 'Hello from a Safe',
      })
    })
    expect(await screen.findByText('Hello from a Safe')).toBeTruthy()
    await press('Sign and continue')
    await expect(signature).resolves.toBe(SIGNATURE_6492)
    expect(handle.signMessage).toHaveBeenCalledWith('Hello from a Safe')
  })

  it('switchChain moves every hook to another smart-wallet chain; any other chain is refused', async () => {
    fakeHandle(anvil, true)
    fakeHandle(baseSepolia, false)
    await setup(SAFE_ON_BOTH)
    await waitFor(() => expect(hook().client).toBeDefined())
    await act(() => hook().client?.switchChain({ id: 84532 }) as Promise<void>)
    expect(hook().client?.chain.id).toBe(84532)
    expect(hook().client?.sponsored).toBe(false)
    await expect(hook().client?.switchChain({ id: 1 })).rejects.toMatchObject({
      code: 'UNSUPPORTED_CHAIN',
    })
    // A call meant for another chain is refused before any screen.
    await expect(hook().client?.sendTransaction({ to: TO, chainId: 31337 })).rejects.toMatchObject({
      code: 'UNSUPPORTED_CHAIN',
    })
    expect(await hook().getClientForChain({ id: 31337 })).toMatchObject({ chain: { id: 31337 } })
  })

  it('spec 01 §5: warns once about smart-wallet chains outside the supported list', async () => {
    fakeHandle(anvil, true)
    // A config the registry has not seen (the warning is once per config).
    const { warn } = await setup({ ...SAFE_ON_BOTH })
    await waitFor(() => expect(hook().client).toBeDefined())
    const about = warn.mock.calls.filter(([m]) => String(m).includes('smart wallets'))
    expect(about).toHaveLength(1)
    // Base Sepolia (84532) is on the list; only the local chain is named.
    expect(String(about[0]?.[0])).toContain('on chain 31337, outside the supported list')
  })
})
