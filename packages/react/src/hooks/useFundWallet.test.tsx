import { LatchkeyError } from '@latchkey/core'
import { MODAL_OPEN_DELAY_MS } from '@latchkey/protocol/constants'
import type { FundingConfig } from '@latchkey/protocol/schemas'
import { act, cleanup, fireEvent, screen } from '@testing-library/react'
import { base, mainnet } from 'viem/chains'
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest'
import { appConfig } from '../test/fake-server.ts'
import { ETH_ADDRESS, renderWithWallets, SOL_ADDRESS } from '../test/wallet.tsx'
import { useFundWallet } from './useFundWallet.ts'

// The modal's lazy chunk and the funding chunk, loaded once.
beforeAll(() =>
  Promise.all([import('../modal/chunk.ts'), import('../modal/funding/FundWalletScreen.tsx')]),
)
afterEach(() => {
  cleanup()
  vi.useRealTimers()
  vi.restoreAllMocks()
})

const FUNDING: FundingConfig = {
  options: [
    { method: 'card', provider: 'moonpay' },
    { method: 'manual', provider: null },
  ],
  default_recommended_amount: '0.05',
  default_recommended_asset: 'native-currency',
  cross_chain_bridging_enabled: false,
  moonpay: { publishable_key: 'pk_test_abc', sandbox: true, api_url: 'https://api.moonpay.com' },
  bridge: null,
}

type Hooks = { fundWallet: ReturnType<typeof useFundWallet>['fundWallet'] }
function Probe({ hooks }: { hooks: Hooks }) {
  hooks.fundWallet = useFundWallet().fundWallet
  return null
}
function setup(funding: FundingConfig | null = FUNDING) {
  const hooks = {} as Hooks
  const rendered = renderWithWallets(<Probe hooks={hooks} />)
  vi.spyOn(rendered.client, 'getAppConfig').mockResolvedValue(
    appConfig({ name: 'Acme', funding_config: funding }),
  )
  return { hooks, ...rendered }
}

async function failure(promise: Promise<unknown>): Promise<LatchkeyError> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  )
  if (!(error instanceof LatchkeyError)) throw new Error(`expected a LatchkeyError, got ${error}`)
  return error
}

describe('useFundWallet (spec 03 §5 checks)', () => {
  it("'Wallet funding is not enabled' when the app has funding off", async () => {
    const { hooks, instance } = setup(null)
    const error = await failure(hooks.fundWallet(ETH_ADDRESS))
    expect(error.code).toBe('FUNDING_NOT_ENABLED')
    expect(error.message).toBe('Wallet funding is not enabled')
    expect(instance.getUiState().walletRequest).toBeNull()
  })

  it("'Funding chain {id} is not in LatchkeyProvider chains list' for a chain the app did not configure", async () => {
    const { hooks } = setup()
    const error = await failure(hooks.fundWallet(ETH_ADDRESS, { chain: base }))
    expect(error.code).toBe('FUNDING_CHAIN_NOT_CONFIGURED')
    expect(error.message).toBe('Funding chain 8453 is not in LatchkeyProvider chains list')
  })

  it("'USDC funding is not supported on the Solana testnet'", async () => {
    const { hooks, instance } = setup()
    instance.setHostConfig({ solanaClusters: [{ name: 'testnet', rpcUrl: 'http://127.0.0.1:1' }] })
    const error = await failure(hooks.fundWallet(SOL_ADDRESS, { asset: 'USDC' }))
    expect(error.code).toBe('FUNDING_USDC_SOLANA_TESTNET')
  })

  it('a user may only fund their own wallets: another address is refused before anything opens', async () => {
    const { hooks, instance } = setup()
    const error = await failure(hooks.fundWallet('0x2222222222222222222222222222222222222222'))
    expect(error.code).toBe('FUNDING_INVALID_DATA')
    expect(instance.getUiState().walletRequest).toBeNull()
  })

  it("'Couldn't find funding config' when the app's settings cannot be read", async () => {
    const { hooks, client, instance } = setup()
    vi.spyOn(client, 'getAppConfig').mockRejectedValue(new LatchkeyError('NETWORK_ERROR'))
    const error = await failure(hooks.fundWallet(ETH_ADDRESS))
    expect(error.code).toBe('FUNDING_CONFIG_NOT_FOUND')
    expect(error.message).toBe("Couldn't find funding config")
    expect(instance.getUiState().walletRequest).toBeNull()
  })

  it('logged out: refused, nothing opens', async () => {
    const hooks = {} as Hooks
    const { instance } = renderWithWallets(<Probe hooks={hooks} />, { authenticated: false })
    expect((await failure(hooks.fundWallet(ETH_ADDRESS))).code).toBe('NOT_AUTHENTICATED')
    expect(instance.getUiState().walletRequest).toBeNull()
  })

  it("opens 'Add funds to your Acme wallet' with the app's options; closing resolves unfunded", async () => {
    const { hooks, instance } = setup()
    const funded = hooks.fundWallet(ETH_ADDRESS, { chain: mainnet })
    await screen.findByRole(
      'heading',
      { name: 'Add funds to your Acme wallet' },
      { timeout: MODAL_OPEN_DELAY_MS + 2_000 },
    )
    const request = instance.getUiState().walletRequest
    expect(request).toMatchObject({
      screen: 'fund-wallet',
      chainType: 'ethereum',
      amount: '0.05',
      network: 'Ethereum',
      options: FUNDING.options,
    })
    expect(screen.getByRole('button', { name: 'Receive funds' })).toBeTruthy()
    fireEvent.click(screen.getByRole('button', { name: 'Close' }))
    await expect(funded).resolves.toEqual({ funded: false })
  })

  it('a custom ERC-20 drops the card on-ramps (they sell the native currency and USDC only)', async () => {
    const { hooks, instance } = setup()
    // A chain whose node refuses at once: the token read fails fast, offline.
    const offline = { ...mainnet, rpcUrls: { default: { http: ['http://127.0.0.1:9'] } } }
    instance.setHostConfig({ chains: [offline] })
    const opened = hooks.fundWallet(ETH_ADDRESS, {
      asset: { erc20: '0x1111111111111111111111111111111111111112' },
    })
    await vi.waitFor(() => expect(instance.getUiState().walletRequest).not.toBeNull())
    expect(instance.getUiState().walletRequest).toMatchObject({
      options: [{ method: 'manual', provider: null }],
    })
    act(() => instance.closeModal())
    await expect(opened).resolves.toEqual({ funded: false })
  })
})
