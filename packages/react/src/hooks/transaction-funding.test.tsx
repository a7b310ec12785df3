import { LatchkeyError } from '@latchkey/core'
import type { FundingConfig } from '@latchkey/protocol/schemas'
import { cleanup } from '@testing-library/react'
import { parseEther } from 'viem'
import { mainnet } from 'viem/chains'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { appConfig } from '../test/fake-server.ts'
import { ETH_ADDRESS, renderWithWallets, SOL_ADDRESS } from '../test/wallet.tsx'
import { ethereumTransactionRequest } from './ethereum-transactions.ts'
import { solanaTransactionRequest } from './solana-transactions.ts'
import { transactionFunding } from './transaction-funding.ts'

afterEach(() => {
  cleanup()
  vi.restoreAllMocks()
})

const FUNDING: FundingConfig = {
  options: [
    { method: 'card', provider: 'moonpay' },
    { method: 'manual', provider: null },
  ],
  default_recommended_amount: '0.05',
  default_recommended_asset: 'USDC',
  cross_chain_bridging_enabled: false,
  moonpay: { publishable_key: 'pk_test_abc', sandbox: true, api_url: 'https://api.moonpay.com' },
  bridge: null,
}
const CLUSTER = { name: 'devnet', rpcUrl: 'http://127.0.0.1:9' }

/** An instance whose user has both wallets, with the app's settings loaded. */
async function setup(funding: FundingConfig | null) {
  const rendered = renderWithWallets(null)
  const getAppConfig = vi
    .spyOn(rendered.client, 'getAppConfig')
    .mockResolvedValue(appConfig({ name: 'Acme', funding_config: funding }))
  rendered.instance.setHostConfig({ chains: [mainnet], solanaClusters: [CLUSTER] })
  await rendered.instance.loadAppConfig()
  return { ...rendered, getAppConfig }
}

const ethWallet = { address: ETH_ADDRESS, entropyId: ETH_ADDRESS, chainType: 'ethereum' } as never
const solWallet = { address: SOL_ADDRESS, entropyId: ETH_ADDRESS, chainType: 'solana' } as never

describe("the confirm screens' 'Add funds' (spec 03 §4)", () => {
  it('is absent when the app has funding off: Approve stays disabled', async () => {
    const { instance } = await setup(null)
    expect(
      transactionFunding(instance, ETH_ADDRESS, { chainType: 'ethereum', chain: mainnet }),
    ).toEqual({})
    const request = ethereumTransactionRequest(instance, ethWallet, {
      chain: mainnet,
      requests: [{ to: null }],
      mode: 'send',
      uiOptions: {},
    })
    expect(request.addFunds).toBeUndefined()
  })

  it('opens funding for the wallet and chain, in the native currency, for the amount asked (value plus fee)', async () => {
    const { instance } = await setup(FUNDING)
    const request = ethereumTransactionRequest(instance, ethWallet, {
      chain: mainnet,
      requests: [{ to: null }],
      mode: 'send',
      uiOptions: {},
    })
    const funding = await request.addFunds?.(parseEther('0.5') + 42_000_000_000_000n)
    expect(funding).toMatchObject({
      screen: 'fund-wallet',
      chainType: 'ethereum',
      address: ETH_ADDRESS,
      network: 'Ethereum',
      // Whole tokens, not the app's recommended amount; native, not the app's USDC default.
      amount: '0.500042',
      options: FUNDING.options,
      comingFromSendTransactionScreen: true,
    })
    expect(await funding?.token()).toEqual(mainnet.nativeCurrency)
  })

  it('Solana: SOL for the lamports asked, on the transaction cluster', async () => {
    const { instance } = await setup({
      ...FUNDING,
      options: [{ method: 'manual', provider: null }],
    })
    const request = solanaTransactionRequest(instance, solWallet, {
      cluster: CLUSTER,
      transaction: new Uint8Array([1]),
      mode: 'send',
      uiOptions: {},
    })
    const funding = await request.addFunds?.(1_500_005_000n)
    expect(funding).toMatchObject({
      chainType: 'solana',
      address: SOL_ADDRESS,
      network: 'Devnet',
      amount: '1.500005',
      comingFromSendTransactionScreen: true,
    })
    expect(await funding?.token()).toEqual({ symbol: 'SOL', decimals: 9 })
  })

  it("'Funding wallet is not enabled' on the click when no method serves this chain", async () => {
    // MoonPay only, and a local chain MoonPay does not sell on: nothing left to offer.
    const { instance } = await setup({
      ...FUNDING,
      options: [{ method: 'card', provider: 'moonpay' }],
    })
    const anvil = { ...mainnet, id: 31337, name: 'Anvil' }
    instance.setHostConfig({ chains: [anvil], solanaClusters: [CLUSTER] })
    const { addFunds } = transactionFunding(instance, ETH_ADDRESS, {
      chainType: 'ethereum',
      chain: anvil,
    })
    const error = await addFunds?.(1n).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(LatchkeyError)
    expect((error as LatchkeyError).code).toBe('FUNDING_METHOD_NOT_ENABLED')
    expect((error as LatchkeyError).message).toBe('Funding wallet is not enabled')
  })

  it("'Funding wallet is not enabled' when funding was turned off after the screen opened", async () => {
    const { instance, getAppConfig } = await setup(FUNDING)
    const { addFunds } = transactionFunding(instance, ETH_ADDRESS, {
      chainType: 'ethereum',
      chain: mainnet,
    })
    getAppConfig.mockResolvedValue(appConfig({ name: 'Acme', funding_config: null }))
    await instance.loadAppConfig()
    const error = await addFunds?.(1n).catch((e: unknown) => e)
    expect((error as LatchkeyError).code).toBe('FUNDING_METHOD_NOT_ENABLED')
  })
})
