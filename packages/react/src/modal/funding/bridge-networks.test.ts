import { defineChain } from 'viem'
import { base, foundry, localhost, mainnet, sepolia } from 'viem/chains'
import { describe, expect, it } from 'vitest'
import { isTestChain } from '../../hooks/app-chains.ts'
import { bridgeSourceCluster } from './bridge-solana.ts'

// Which networks bridge with which (spec 03 §5 "testnets only with test
// clusters"): a local node's chain (Anvil, Hardhat: 31337; viem's localhost:
// 1337) carries no `testnet` flag but is a test network, so it pairs with a
// test cluster — as the demo's 'Local (Anvil)' with its 'localnet' ledger.
describe('bridge networks', () => {
  it('local node chains and flagged testnets are test networks; mainnets are not', () => {
    expect(foundry.testnet).toBeUndefined()
    expect(isTestChain(foundry)).toBe(true)
    expect(isTestChain(defineChain({ ...foundry, rpcUrls: { default: { http: ['x'] } } }))).toBe(
      true,
    )
    expect(isTestChain(localhost)).toBe(true)
    expect(isTestChain(sepolia)).toBe(true)
    expect(isTestChain(mainnet)).toBe(false)
    expect(isTestChain(base)).toBe(false)
  })

  it('a local chain bridges from the app’s test cluster, never from mainnet-beta', () => {
    const clusters = [
      { name: 'mainnet-beta', rpcUrl: 'https://a' },
      { name: 'localnet', rpcUrl: 'http://127.0.0.1:8899' },
    ]
    expect(bridgeSourceCluster(foundry, clusters)?.name).toBe('localnet')
    expect(bridgeSourceCluster(mainnet, clusters)?.name).toBe('mainnet-beta')
    expect(bridgeSourceCluster(foundry, [{ name: 'mainnet-beta', rpcUrl: 'https://a' }])).toBe(
      undefined,
    )
  })
})
