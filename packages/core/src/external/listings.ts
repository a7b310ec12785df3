import type { ChainType } from '@latchkey/protocol/schemas'
import { normalizeWalletName } from '@latchkey/protocol/validation'

/**
 * A wallet the connect list can show (spec 01 §3 "Wallet listing"): its slug
 * (the `walletClientType` sent to the server), chains and where to get it.
 */
export interface WalletListing {
  /** Slug: `metamask`, `coinbase_wallet`, `rainbow`, `phantom`, `wallet_connect`… */
  id: string
  name: string
  /** An image URL or data URI; null draws the initial. */
  icon: string | null
  chainTypes: ChainType[]
  /** EIP-6963 reverse-DNS ids that mean this wallet is installed. */
  rdns?: string[]
  homepage?: string
  /** Browser-extension install page. */
  extensionUrl?: string
  /**
   * Opens this page inside the wallet's in-app browser on a phone
   * (`{url}` = this page, URL-encoded).
   */
  mobileBrowseUrl?: string
  /** App Store page ("Still here?" → "Go to App Store"). */
  appStoreUrl?: string
}

/** The listings Latchkey knows by slug; detected wallets not listed here get one built from EIP-6963 info. */
export const KNOWN_WALLETS: Record<string, WalletListing> = {
  metamask: {
    id: 'metamask',
    name: 'MetaMask',
    icon: null,
    chainTypes: ['ethereum'],
    rdns: ['io.metamask', 'io.metamask.flask'],
    homepage: 'https://metamask.io',
    extensionUrl: 'https://metamask.io/download/',
    mobileBrowseUrl: 'https://metamask.app.link/dapp/{hostpath}',
    appStoreUrl: 'https://apps.apple.com/app/metamask/id1438144202',
  },
  coinbase_wallet: {
    id: 'coinbase_wallet',
    name: 'Coinbase Wallet',
    icon: null,
    chainTypes: ['ethereum'],
    rdns: ['com.coinbase.wallet'],
    homepage: 'https://www.coinbase.com/wallet',
    extensionUrl: 'https://www.coinbase.com/wallet/downloads',
    mobileBrowseUrl: 'https://go.cb-w.com/dapp?cb_url={url}',
    appStoreUrl: 'https://apps.apple.com/app/coinbase-wallet/id1278383455',
  },
  rainbow: {
    id: 'rainbow',
    name: 'Rainbow',
    icon: null,
    chainTypes: ['ethereum'],
    rdns: ['me.rainbow'],
    homepage: 'https://rainbow.me',
    extensionUrl: 'https://rainbow.me/extension',
    mobileBrowseUrl: 'https://rnbwapp.com/dapp?url={url}',
    appStoreUrl: 'https://apps.apple.com/app/rainbow-ethereum-wallet/id1457119021',
  },
  phantom: {
    id: 'phantom',
    name: 'Phantom',
    icon: null,
    chainTypes: ['solana', 'ethereum'],
    rdns: ['app.phantom'],
    homepage: 'https://phantom.com',
    extensionUrl: 'https://phantom.com/download',
    mobileBrowseUrl: 'https://phantom.app/ul/browse/{url}?ref={origin}',
    appStoreUrl: 'https://apps.apple.com/app/phantom-crypto-wallet/id1598432977',
  },
  wallet_connect: {
    id: 'wallet_connect',
    name: 'WalletConnect',
    icon: null,
    chainTypes: ['ethereum'],
    homepage: 'https://walletconnect.network',
  },
}

/** The spec's default connect list (spec 01 §2): detected wallets first, then these. */
export const DEFAULT_WALLET_LIST = [
  'detected_wallets',
  'metamask',
  'coinbase_wallet',
  'rainbow',
  'wallet_connect',
] as const

/** Re-exported: the rule lives in protocol, shared with the server's allowlist. */
export { normalizeWalletName }

/** The slug for a detected wallet: a known listing's id when its rdns or name matches. */
export function slugForWallet(name: string, rdns?: string): string {
  if (rdns)
    for (const listing of Object.values(KNOWN_WALLETS))
      if (listing.rdns?.includes(rdns)) return listing.id
  const normalized = normalizeWalletName(name)
  for (const listing of Object.values(KNOWN_WALLETS))
    if (normalizeWalletName(listing.name) === normalized) return listing.id
  return normalized.replace(/[^a-z0-9_.-]/g, '') || 'unknown'
}

/** Fills a listing's `{url}`, `{hostpath}` and `{origin}` for the current page. */
export function mobileLink(template: string, pageUrl: string): string {
  const url = new URL(pageUrl)
  return template
    .replace('{url}', encodeURIComponent(url.href))
    .replace('{hostpath}', `${url.host}${url.pathname}${url.search}`)
    .replace('{origin}', encodeURIComponent(url.origin))
}
