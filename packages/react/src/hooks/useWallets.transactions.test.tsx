import { act, cleanup } from '@testing-library/react'
import { defineChain } from 'viem'
import { mainnet } from 'viem/chains'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { ETH_ADDRESS, renderWithWallets } from '../test/wallet.tsx'
import type { EthereumTransactionRequest } from '../transaction-requests.ts'
import { type ConnectedEthereumWallet, useWallets } from './useWallets.ts'

const anvil = defineChain({
  id: 31337,
  name: 'Anvil',
  nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
  rpcUrls: { default: { http: ['http://127.0.0.1:1'] } },
})
const seen: { wallet?: ConnectedEthereumWallet } = {}
function Probe() {
  seen.wallet = useWallets().wallets[0] as ConnectedEthereumWallet
  return null
}

function setup() {
  const rendered = renderWithWallets(<Probe />)
  act(() => rendered.instance.setHostConfig({ chains: [mainnet, anvil] }))
  const open = vi
    .spyOn(rendered.instance, 'openWalletScreen')
    .mockResolvedValue([{ hash: '0xfeed' }] as never)
  return { ...rendered, open, wallet: seen.wallet as ConnectedEthereumWallet }
}
afterEach(cleanup)

describe("the embedded wallet's provider on the app's chains", () => {
  it('switchChain moves the provider to another of the app chains; an unknown chain is 4902', async () => {
    const { wallet } = setup()
    const provider = wallet.getEthereumProvider()
    expect(await provider.request({ method: 'eth_chainId' })).toBe('0x1')
    await wallet.switchChain(31337)
    expect(await provider.request({ method: 'eth_chainId' })).toBe('0x7a69')
    await expect(wallet.switchChain(5)).rejects.toMatchObject({ code: 4902 })
  })

  it('eth_sendTransaction opens the confirm screen on the current chain and answers its hash', async () => {
    const { wallet, open } = setup()
    await wallet.switchChain(31337)
    const hash = await wallet.getEthereumProvider().request({
      method: 'eth_sendTransaction',
      params: [{ from: ETH_ADDRESS, to: ETH_ADDRESS, value: '0x1' }],
    })
    expect(hash).toBe('0xfeed')
    const request = open.mock.calls[0]?.[0] as EthereumTransactionRequest
    expect(request).toMatchObject({
      screen: 'ethereum-transaction',
      mode: 'send',
      address: ETH_ADDRESS,
    })
    expect(request.chain.id).toBe(31337)
    expect(request.requests).toEqual([{ to: ETH_ADDRESS, value: 1n }])
  })

  it('a transaction for a chain the app does not have is refused before any screen', async () => {
    const { wallet, open } = setup()
    await expect(
      wallet.getEthereumProvider().request({
        method: 'eth_sendTransaction',
        params: [{ to: ETH_ADDRESS, value: '0x1', chainId: '0x5' }],
      }),
    ).rejects.toMatchObject({
      code: 'UNSUPPORTED_CHAIN',
      message: 'Chain ID 5 is not supported by this app.',
    })
    expect(open).not.toHaveBeenCalled()
  })
})
