import { describe, expect, it } from 'vitest'
import {
  DEFAULT_WALLET_LIST,
  KNOWN_WALLETS,
  mobileLink,
  normalizeWalletName,
  slugForWallet,
} from './listings.ts'

describe('normalizeWalletName (spec 01 §5)', () => {
  it.each([
    ['MetaMask-Wallet', 'metamask'],
    ['Rabby Extension', 'rabby'],
    ['Trust_Wallet', 'trust'],
    ['Coinbase Wallet', 'coinbase'],
    ['  Phantom  ', 'phantom'],
    ['MetaMask', 'metamask'],
  ])('%s → %s', (name, normalized) => {
    expect(normalizeWalletName(name)).toBe(normalized)
  })

  it('only strips a trailing -wallet / -extension', () => {
    expect(normalizeWalletName('Wallet Guard')).toBe('wallet_guard')
    expect(normalizeWalletName('WalletConnect')).toBe('walletconnect')
  })
})

describe('slugForWallet', () => {
  it('uses the known listing whose rdns matches', () => {
    expect(slugForWallet('Anything', 'io.metamask')).toBe('metamask')
    expect(slugForWallet('MetaMask Flask', 'io.metamask.flask')).toBe('metamask')
    expect(slugForWallet('Coinbase', 'com.coinbase.wallet')).toBe('coinbase_wallet')
    expect(slugForWallet('Phantom', 'app.phantom')).toBe('phantom')
  })

  it('falls back to the known listing whose normalised name matches', () => {
    expect(slugForWallet('MetaMask')).toBe('metamask')
    expect(slugForWallet('Coinbase Wallet')).toBe('coinbase_wallet')
    expect(slugForWallet('Rainbow Wallet', 'unknown.rdns')).toBe('rainbow')
    expect(slugForWallet('Phantom')).toBe('phantom')
  })

  it("builds a slug from an unknown wallet's name", () => {
    expect(slugForWallet('Rabby Wallet', 'io.rabby')).toBe('rabby')
    expect(slugForWallet('OKX Wallet')).toBe('okx')
    expect(slugForWallet('Brave Wallet', 'com.brave.wallet')).toBe('brave')
    expect(slugForWallet('Zerion (beta)!')).toBe('zerion_beta')
    expect(slugForWallet('✨✨')).toBe('unknown')
  })
})

describe('mobileLink', () => {
  const page = 'https://app.example.com/login/start?ref=1'

  it('fills {hostpath} with host, path and query (MetaMask)', () => {
    expect(mobileLink(KNOWN_WALLETS.metamask?.mobileBrowseUrl ?? '', page)).toBe(
      'https://metamask.app.link/dapp/app.example.com/login/start?ref=1',
    )
  })

  it('fills {url} with the URL-encoded page (Coinbase Wallet, Rainbow)', () => {
    const encoded = encodeURIComponent(page)
    expect(mobileLink(KNOWN_WALLETS.coinbase_wallet?.mobileBrowseUrl ?? '', page)).toBe(
      `https://go.cb-w.com/dapp?cb_url=${encoded}`,
    )
    expect(mobileLink(KNOWN_WALLETS.rainbow?.mobileBrowseUrl ?? '', page)).toBe(
      `https://rnbwapp.com/dapp?url=${encoded}`,
    )
  })

  it('fills {url} and {origin} (Phantom)', () => {
    expect(mobileLink(KNOWN_WALLETS.phantom?.mobileBrowseUrl ?? '', page)).toBe(
      `https://phantom.app/ul/browse/${encodeURIComponent(page)}?ref=${encodeURIComponent('https://app.example.com')}`,
    )
  })

  it('keeps the port in {hostpath}', () => {
    expect(mobileLink('x://{hostpath}', 'http://localhost:5173/')).toBe('x://localhost:5173/')
  })
})

describe('listings', () => {
  it('the default connect list is detected wallets, metamask, coinbase_wallet, rainbow, wallet_connect (spec 01 §2)', () => {
    expect([...DEFAULT_WALLET_LIST]).toEqual([
      'detected_wallets',
      'metamask',
      'coinbase_wallet',
      'rainbow',
      'wallet_connect',
    ])
  })

  it('every known listing is keyed by its own slug', () => {
    for (const [key, listing] of Object.entries(KNOWN_WALLETS)) expect(listing.id).toBe(key)
  })
})
