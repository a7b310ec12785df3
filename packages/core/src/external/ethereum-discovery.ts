/** An EIP-1193 provider, as wallets expose it. */
export interface EIP1193Provider {
  request(args: { method: string; params?: unknown }): Promise<unknown>
  on?(event: string, listener: (...args: never[]) => void): unknown
  removeListener?(event: string, listener: (...args: never[]) => void): unknown
}

/** What an EIP-6963 announcement carries. */
export interface EIP6963ProviderInfo {
  uuid: string
  name: string
  /** A data URI (the standard requires one). */
  icon: string
  rdns: string
}

export interface DetectedEthereumWallet {
  info: EIP6963ProviderInfo
  provider: EIP1193Provider
  /** `eip6963`, or `legacy` for a bare `window.ethereum`. */
  source: 'eip6963' | 'legacy'
}

type LegacyFlags = EIP1193Provider & {
  isMetaMask?: boolean
  isCoinbaseWallet?: boolean
  isRainbow?: boolean
  isPhantom?: boolean
  isBraveWallet?: boolean
  isRabby?: boolean
  providers?: EIP1193Provider[]
}

/** A name for a bare `window.ethereum`, from the flags wallets set on it. */
function legacyInfo(provider: LegacyFlags): EIP6963ProviderInfo {
  const [name, rdns] = provider.isRainbow
    ? ['Rainbow', 'me.rainbow']
    : provider.isCoinbaseWallet
      ? ['Coinbase Wallet', 'com.coinbase.wallet']
      : provider.isPhantom
        ? ['Phantom', 'app.phantom']
        : provider.isRabby
          ? ['Rabby', 'io.rabby']
          : provider.isBraveWallet
            ? ['Brave Wallet', 'com.brave.wallet']
            : provider.isMetaMask
              ? ['MetaMask', 'io.metamask']
              : ['Browser Wallet', 'injected']
  return { uuid: `legacy:${rdns}`, name, icon: '', rdns }
}

/**
 * Watches for Ethereum wallets in the page: EIP-6963 announcements (asked
 * for at once and answered whenever a wallet loads), plus a legacy
 * `window.ethereum` when no announced wallet is the same object. Calls
 * `onChange` with the full list after every change.
 *
 * @example
 * const stop = watchEthereumWallets(window, (wallets) => render(wallets))
 */
export function watchEthereumWallets(
  target: Window,
  onChange: (wallets: DetectedEthereumWallet[]) => void,
): () => void {
  const announced = new Map<string, DetectedEthereumWallet>()
  let legacy: DetectedEthereumWallet | null = null

  const emit = () => {
    const list = [...announced.values()]
    const providers = new Set(list.map((w) => w.provider))
    if (legacy && !providers.has(legacy.provider)) list.push(legacy)
    onChange(list)
  }
  const onAnnounce = (event: Event) => {
    const detail = (
      event as CustomEvent<{ info?: EIP6963ProviderInfo; provider?: EIP1193Provider }>
    ).detail
    if (!detail?.info?.uuid || typeof detail.provider?.request !== 'function') return
    const known = announced.get(detail.info.uuid)
    if (known?.provider === detail.provider) return
    announced.set(detail.info.uuid, {
      info: detail.info,
      provider: detail.provider,
      source: 'eip6963',
    })
    emit()
  }
  const checkLegacy = () => {
    const injected = (target as Window & { ethereum?: LegacyFlags }).ethereum
    if (!injected || typeof injected.request !== 'function' || legacy?.provider === injected) return
    legacy = { info: legacyInfo(injected), provider: injected, source: 'legacy' }
    emit()
  }
  target.addEventListener('eip6963:announceProvider', onAnnounce)
  target.dispatchEvent(new Event('eip6963:requestProvider'))
  checkLegacy()
  // Some extensions set window.ethereum after load.
  target.addEventListener('ethereum#initialized', checkLegacy, { once: true })
  return () => {
    target.removeEventListener('eip6963:announceProvider', onAnnounce)
    target.removeEventListener('ethereum#initialized', checkLegacy)
  }
}

/**
 * Phantom's Ethereum provider, `window.phantom.ethereum`: Phantom injects it
 * (docs.phantom.com, "Detecting the provider") only while Ethereum is on in
 * its settings. Its Solana side alone (`window.phantom.solana`, the Wallet
 * Standard registration) means multichain is off (spec 01 §8).
 */
export function phantomEthereumProvider(target: Window): EIP1193Provider | null {
  const phantom = (target as Window & { phantom?: { ethereum?: LegacyFlags } }).phantom
  return typeof phantom?.ethereum?.request === 'function' ? phantom.ethereum : null
}
