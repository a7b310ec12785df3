import type { SmartWalletConfig } from '@latchkey/protocol/schemas'
import { anvil, base, baseSepolia, mainnet } from 'viem/chains'
import { describe, expect, it, vi } from 'vitest'
import { smartWalletChains, warnUnsupportedSmartWalletChains } from './chains.ts'

const config = (...ids: number[]): SmartWalletConfig => ({
  type: 'safe',
  version: '1.4.1',
  chains: ids.map((chain_id) => ({ chain_id, sponsored: chain_id !== 8453 })),
})

describe('spec 01 §5: the informational warning for smart-wallet chains', () => {
  it('chains on the supported list: no warning', () => {
    const warn = vi.fn()
    warnUnsupportedSmartWalletChains(config(8453, 84532, 1), warn)
    expect(warn).not.toHaveBeenCalled()
  })

  it('names every chain outside the list, once per config', () => {
    const warn = vi.fn()
    const outside = config(31337, 8453, 1337)
    warnUnsupportedSmartWalletChains(outside, warn)
    warnUnsupportedSmartWalletChains(outside, warn)
    expect(warn).toHaveBeenCalledOnce()
    expect(warn.mock.calls[0]?.[0]).toMatch(
      /^Latchkey: smart wallets are configured on chains 31337, 1337, outside/,
    )
  })

  it('no smart wallets: nothing to warn about', () => {
    const warn = vi.fn()
    warnUnsupportedSmartWalletChains(null, warn)
    expect(warn).not.toHaveBeenCalled()
  })
})

describe('smartWalletChains', () => {
  it("the configured ids the host lists, the host's default first, with whether the app pays", () => {
    const found = smartWalletChains(config(84532, 8453, 10), {
      chains: [mainnet, base, baseSepolia, anvil],
      defaultChain: base,
    })
    // Optimism (10) has no RPC in the host's chains: left out.
    expect(found.map((c) => [c.chain.id, c.sponsored])).toEqual([
      [8453, false],
      [84532, true],
    ])
  })
})
