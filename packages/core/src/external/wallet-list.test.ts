import { afterEach, describe, expect, it, vi } from 'vitest'
import {
  create,
  fakeEthereumWallet,
  fakeSolanaWallet,
  installEthereum,
  installSolana,
  resetExternalWalletFakes,
} from '../test/external-wallets.ts'

// The connect list (spec 01 §2): detected wallets, then the walletList entries.

afterEach(() => {
  resetExternalWalletFakes()
})

describe('options() — the connect list', () => {
  it('lists detected wallets first, then metamask, coinbase_wallet, rainbow (no WalletConnect without a project id)', () => {
    installEthereum(fakeEthereumWallet(), {
      uuid: 'uuid-rabby',
      name: 'Rabby Wallet',
      rdns: 'io.rabby',
    })
    const { wallets } = create()
    expect(wallets.options().map((o) => [o.key, o.id, o.kind, o.installed])).toEqual([
      ['eip6963:uuid-rabby', 'rabby', 'injected', true],
      ['install:metamask', 'metamask', 'not_installed', false],
      ['coinbase_wallet', 'coinbase_wallet', 'coinbase_wallet', true],
      ['install:rainbow', 'rainbow', 'not_installed', false],
    ])
  })

  it('offers WalletConnect last when a walletConnectProjectId is set', () => {
    const { wallets } = create({ walletConnectProjectId: 'project-1' })
    expect(wallets.options().map((o) => o.key)).toEqual([
      'install:metamask',
      'coinbase_wallet',
      'install:rainbow',
      'wallet_connect',
    ])
    expect(wallets.options().at(-1)).toMatchObject({
      id: 'wallet_connect',
      kind: 'wallet_connect',
      installed: true,
    })
  })

  it('a detected MetaMask takes its place at the top (once), with the listing links', () => {
    installEthereum(fakeEthereumWallet())
    const { wallets } = create({ walletConnectProjectId: 'project-1' })
    const options = wallets.options()
    expect(options.map((o) => o.key)).toEqual([
      'eip6963:uuid-metamask',
      'coinbase_wallet',
      'install:rainbow',
      'wallet_connect',
    ])
    expect(options[0]).toMatchObject({
      id: 'metamask',
      name: 'MetaMask',
      icon: 'data:image/svg+xml,<svg/>',
      chainTypes: ['ethereum'],
      installed: true,
      kind: 'injected',
      extensionUrl: 'https://metamask.io/download/',
    })
  })

  it('not-installed rows carry where to get the wallet', () => {
    const { wallets } = create()
    expect(wallets.options().find((o) => o.id === 'rainbow')).toMatchObject({
      key: 'install:rainbow',
      kind: 'not_installed',
      installed: false,
      extensionUrl: 'https://rainbow.me/extension',
      appStoreUrl: expect.stringContaining('apps.apple.com'),
    })
  })

  it('a legacy window.ethereum is listed as a detected wallet', () => {
    ;(window as { ethereum?: unknown }).ethereum = {
      ...fakeEthereumWallet().provider,
      isRabby: true,
    }
    const { wallets } = create()
    expect(wallets.options()[0]).toMatchObject({
      key: 'eip6963:legacy:io.rabby',
      id: 'rabby',
      name: 'Rabby',
      icon: null,
      kind: 'injected',
    })
  })

  describe('walletChainType', () => {
    function setup() {
      installEthereum(fakeEthereumWallet(), {
        uuid: 'uuid-phantom',
        name: 'Phantom',
        rdns: 'app.phantom',
      })
      installSolana(fakeSolanaWallet('Phantom'))
      installSolana(fakeSolanaWallet('Solflare'))
      return create({ walletConnectProjectId: 'project-1' }).wallets
    }

    it('ethereum-only (the default) hides Solana-only wallets; a wallet on both chains is one row', () => {
      const wallets = setup()
      expect(wallets.options()).toEqual(wallets.options({ walletChainType: 'ethereum-only' }))
      expect(wallets.options().map((o) => [o.key, o.chainTypes])).toEqual([
        ['eip6963:uuid-phantom', ['ethereum', 'solana']],
        ['install:metamask', ['ethereum']],
        ['coinbase_wallet', ['ethereum']],
        ['install:rainbow', ['ethereum']],
        ['wallet_connect', ['ethereum']],
      ])
    })

    it('solana-only shows only Solana wallets, as Wallet Standard rows', () => {
      const wallets = setup()
      expect(
        wallets
          .options({ walletChainType: 'solana-only' })
          .map((o) => [o.key, o.kind, o.chainTypes]),
      ).toEqual([
        ['standard:Phantom', 'wallet_standard', ['solana']],
        ['standard:Solflare', 'wallet_standard', ['solana']],
      ])
    })

    it('ethereum-and-solana shows everything', () => {
      const wallets = setup()
      expect(wallets.options({ walletChainType: 'ethereum-and-solana' }).map((o) => o.key)).toEqual(
        [
          'eip6963:uuid-phantom',
          'standard:Solflare',
          'install:metamask',
          'coinbase_wallet',
          'install:rainbow',
          'wallet_connect',
        ],
      )
    })
  })

  it('follows a custom walletList, in its order, without duplicates', () => {
    installEthereum(fakeEthereumWallet(), { uuid: 'uuid-rabby', name: 'Rabby', rdns: 'io.rabby' })
    installEthereum(fakeEthereumWallet())
    installSolana(fakeSolanaWallet('Solflare'))
    const { wallets } = create({ walletConnectProjectId: 'project-1' })
    expect(
      wallets
        .options({
          walletChainType: 'ethereum-and-solana',
          walletList: [
            'wallet_connect',
            'metamask',
            'phantom',
            'detected_solana_wallets',
            'detected_wallets',
          ],
        })
        .map((o) => o.key),
    ).toEqual([
      'wallet_connect',
      'eip6963:uuid-metamask',
      'install:phantom',
      'standard:Solflare',
      'eip6963:uuid-rabby',
    ])
    expect(
      wallets
        .options({ walletList: ['detected_ethereum_wallets', 'unknown-slug'] })
        .map((o) => o.key),
    ).toEqual(['eip6963:uuid-rabby', 'eip6963:uuid-metamask'])
  })

  it('a wallet that loads later shows up in the list and notifies subscribers', () => {
    const { wallets } = create()
    const listener = vi.fn()
    wallets.subscribe(listener)
    installEthereum(fakeEthereumWallet(), { uuid: 'late', name: 'Rabby', rdns: 'io.rabby' })
    expect(listener).toHaveBeenCalled()
    expect(wallets.getState().connectors['eip6963:late']).toBe('initialized')
    expect(wallets.options()[0]?.key).toBe('eip6963:late')
  })
})
