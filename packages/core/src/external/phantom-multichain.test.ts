import { afterEach, describe, expect, it } from 'vitest'
import {
  create,
  fakeEthereumWallet,
  fakeSolanaWallet,
  installEthereum,
  installSolana,
  resetExternalWalletFakes,
} from '../test/external-wallets.ts'

// Spec 01 §8 "Phantom multichain not enabled: 'Could not connect with wallet'
// with Try again and Cancel". Phantom injects `window.phantom.ethereum` (and
// announces itself by EIP-6963) only while Ethereum is on in its settings;
// with it off, only its Solana side is in the page.

/** Phantom with Ethereum off: its Wallet Standard (Solana) side and `window.phantom.solana`. */
function installPhantomSolanaOnly() {
  ;(window as { phantom?: unknown }).phantom = { solana: { isPhantom: true } }
  return installSolana(fakeSolanaWallet('Phantom'))
}

afterEach(() => {
  resetExternalWalletFakes()
})

describe('Phantom with Ethereum off', () => {
  it('is still offered on an Ethereum list, as a wallet of both chains', () => {
    installPhantomSolanaOnly()
    installSolana(fakeSolanaWallet('Solflare'))
    const { wallets } = create()
    const options = wallets.options({ walletList: ['detected_wallets', 'metamask'] })
    expect(options.map((o) => [o.key, o.chainTypes])).toEqual([
      ['standard:Phantom', ['solana', 'ethereum']],
      ['install:metamask', ['ethereum']],
    ])
    // A Solana-only list is unchanged.
    expect(wallets.options({ walletChainType: 'solana-only' }).map((o) => o.chainTypes)).toEqual([
      ['solana'],
      ['solana'],
    ])
  })

  it('connecting it on Ethereum fails with WALLET_MULTICHAIN_DISABLED: "Could not connect with wallet"', async () => {
    const key = installPhantomSolanaOnly()
    const { wallets } = create()
    const error = await wallets.connect(key, 'ethereum').catch((e: unknown) => e)
    expect(error).toMatchObject({
      code: 'WALLET_MULTICHAIN_DISABLED',
      userMessage: { title: 'Could not connect with wallet', retryable: true },
    })
    expect(wallets.getState().connectors[key]).toBe('disconnected')
  })

  it('connecting it on Solana still works', async () => {
    const key = installPhantomSolanaOnly()
    const { wallets } = create()
    await expect(wallets.connect(key, 'solana')).resolves.toMatchObject({ type: 'solana' })
  })

  it('a Phantom whose Ethereum provider is in the page (not announced yet) is not called disabled', async () => {
    const key = installSolana(fakeSolanaWallet('Phantom'))
    ;(window as { phantom?: unknown }).phantom = {
      solana: {},
      ethereum: { ...fakeEthereumWallet().provider, isPhantom: true },
    }
    const { wallets } = create()
    await expect(wallets.connect(key, 'ethereum')).rejects.toMatchObject({
      code: 'WALLET_NOT_FOUND_EXTERNAL',
    })
  })

  it('a Solana-only wallet of one chain is not offered for Ethereum', async () => {
    const key = installSolana(fakeSolanaWallet('Solflare'))
    const { wallets } = create()
    expect(wallets.options()).not.toContainEqual(expect.objectContaining({ key }))
    await expect(wallets.connect(key, 'ethereum')).rejects.toMatchObject({
      code: 'WALLET_NOT_FOUND_EXTERNAL',
    })
  })
})

describe("Phantom's Ethereum provider refusing", () => {
  it('an unauthorized answer (4100) to the connect request reads as multichain off', async () => {
    const fake = fakeEthereumWallet()
    fake.wallet.rejectWith = { code: 4100, message: 'The requested method has not been authorized' }
    const key = installEthereum(fake, {
      uuid: 'uuid-phantom',
      name: 'Phantom',
      rdns: 'app.phantom',
    })
    const { wallets } = create()
    await expect(wallets.connect(key, 'ethereum')).rejects.toMatchObject({
      code: 'WALLET_MULTICHAIN_DISABLED',
    })
  })

  it('other wallets answering 4100, and Phantom rejecting (4001), keep their meaning', async () => {
    const metamask = fakeEthereumWallet()
    metamask.wallet.rejectWith = { code: 4100 }
    const mmKey = installEthereum(metamask)
    const phantom = fakeEthereumWallet()
    phantom.wallet.rejectWith = { code: 4001 }
    const phantomKey = installEthereum(phantom, {
      uuid: 'uuid-phantom',
      name: 'Phantom',
      rdns: 'app.phantom',
    })
    const { wallets } = create()
    await expect(wallets.connect(mmKey, 'ethereum')).rejects.not.toMatchObject({
      code: 'WALLET_MULTICHAIN_DISABLED',
    })
    await expect(wallets.connect(phantomKey, 'ethereum')).rejects.toMatchObject({
      code: 'WALLET_USER_REJECTED',
    })
  })
})
