import { base, mainnet, optimism } from 'viem/chains'
import { afterEach, describe, expect, it } from 'vitest'
import { LatchkeyError } from '../errors.ts'
import { create, fakeEthereumWallet, resetExternalWalletFakes } from '../test/external-wallets.ts'
import { addChainParameters, checkChains, switchEthereumChain } from './chains.ts'
import type { EvmChain } from './types.ts'

afterEach(() => {
  resetExternalWalletFakes()
})

describe('checkChains (spec 01 §5)', () => {
  it('refuses an empty chain list with INVALID_CHAINS', () => {
    expect(() => checkChains([], mainnet)).toThrow(
      expect.objectContaining({ code: 'INVALID_CHAINS' }),
    )
  })

  it('refuses a default chain outside the list with UNSUPPORTED_CHAIN and details {id}', () => {
    let error: unknown
    try {
      checkChains([mainnet], base)
    } catch (caught) {
      error = caught
    }
    expect(error).toBeInstanceOf(LatchkeyError)
    expect(error).toMatchObject({
      code: 'UNSUPPORTED_CHAIN',
      details: { id: base.id },
      message: `Chain ID ${base.id} is not supported by this app.`,
    })
  })

  it('accepts a default chain in the list, or none', () => {
    expect(() => checkChains([mainnet, base], base)).not.toThrow()
    expect(() => checkChains([mainnet], undefined)).not.toThrow()
  })

  it('createExternalWallets validates its chains', () => {
    expect(() => create({ chains: [] })).toThrow(
      expect.objectContaining({ code: 'INVALID_CHAINS' }),
    )
    expect(() => create({ chains: [mainnet], defaultChain: base })).toThrow(
      expect.objectContaining({ code: 'UNSUPPORTED_CHAIN', details: { id: base.id } }),
    )
  })
})

describe('addChainParameters', () => {
  it('describes a viem chain for wallet_addEthereumChain', () => {
    expect(addChainParameters(base)).toEqual({
      chainId: '0x2105',
      chainName: 'Base',
      nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
      rpcUrls: ['https://mainnet.base.org'],
      blockExplorerUrls: ['https://basescan.org'],
    })
  })

  it('leaves out blockExplorerUrls for a chain without an explorer', () => {
    const local: EvmChain = {
      id: 31337,
      name: 'Anvil',
      nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
      rpcUrls: { default: { http: ['http://127.0.0.1:8545'] } },
    }
    expect(addChainParameters(local)).toEqual({
      chainId: '0x7a69',
      chainName: 'Anvil',
      nativeCurrency: local.nativeCurrency,
      rpcUrls: ['http://127.0.0.1:8545'],
    })
  })
})

describe('switchEthereumChain', () => {
  it('switches a wallet that knows the chain, without adding it', async () => {
    const fake = fakeEthereumWallet({ knownChains: [1, 10] })
    await switchEthereumChain(fake.provider, optimism)
    expect(fake.request.mock.calls.map(([args]) => args)).toEqual([
      { method: 'wallet_switchEthereumChain', params: [{ chainId: '0xa' }] },
    ])
  })

  it('adds the chain when the wallet answers 4902 (even nested), then switches again', async () => {
    const fake = fakeEthereumWallet({ knownChains: [1] })
    fake.request.mockImplementationOnce(async () => {
      throw { data: { originalError: { code: 4902 } } }
    })
    await switchEthereumChain(fake.provider, base)
    expect(fake.request.mock.calls.map(([args]) => args)).toEqual([
      { method: 'wallet_switchEthereumChain', params: [{ chainId: '0x2105' }] },
      { method: 'wallet_addEthereumChain', params: [addChainParameters(base)] },
      { method: 'wallet_switchEthereumChain', params: [{ chainId: '0x2105' }] },
    ])
    expect(fake.wallet.chainId).toBe(base.id)
  })

  it('passes other failures on as wallet errors, without adding the chain', async () => {
    const fake = fakeEthereumWallet()
    fake.request.mockRejectedValueOnce({ code: 4001 })
    await expect(switchEthereumChain(fake.provider, optimism)).rejects.toMatchObject({
      code: 'WALLET_USER_REJECTED',
    })
    expect(fake.methods()).toEqual(['wallet_switchEthereumChain'])
  })
})
