import { afterEach, describe, expect, it, vi } from 'vitest'
import {
  type DetectedEthereumWallet,
  type EIP1193Provider,
  type EIP6963ProviderInfo,
  watchEthereumWallets,
} from './ethereum-discovery.ts'

const fakeProvider = (flags: Record<string, boolean> = {}): EIP1193Provider => ({
  request: async () => null,
  ...flags,
})

const info = (uuid: string, name = 'Rabby', rdns = 'io.rabby'): EIP6963ProviderInfo => ({
  uuid,
  name,
  icon: 'data:image/svg+xml,<svg/>',
  rdns,
})

/** What a wallet extension does: announce a frozen { info, provider } detail. */
function announce(detail: { info: EIP6963ProviderInfo; provider: EIP1193Provider }) {
  window.dispatchEvent(
    new CustomEvent('eip6963:announceProvider', { detail: Object.freeze({ ...detail }) }),
  )
}

const stops: Array<() => void> = []
const cleanups: Array<() => void> = []

function watch() {
  const onChange = vi.fn<(wallets: DetectedEthereumWallet[]) => void>()
  const stop = watchEthereumWallets(window, onChange)
  stops.push(stop)
  const latest = () => onChange.mock.lastCall?.[0] ?? []
  return { onChange, stop, latest }
}

afterEach(() => {
  for (const stop of stops.splice(0)) stop()
  for (const cleanup of cleanups.splice(0)) cleanup()
  delete (window as { ethereum?: unknown }).ethereum
})

describe('watchEthereumWallets (EIP-6963)', () => {
  it('asks wallets to announce themselves (eip6963:requestProvider) when it starts', () => {
    const requested = vi.fn()
    window.addEventListener('eip6963:requestProvider', requested)
    cleanups.push(() => window.removeEventListener('eip6963:requestProvider', requested))
    watch()
    expect(requested).toHaveBeenCalledTimes(1)
  })

  it('lists a wallet that answers requestProvider synchronously', () => {
    const provider = fakeProvider()
    const answer = () => announce({ info: info('uuid-1'), provider })
    window.addEventListener('eip6963:requestProvider', answer)
    cleanups.push(() => window.removeEventListener('eip6963:requestProvider', answer))
    const { latest } = watch()
    expect(latest()).toEqual([{ info: info('uuid-1'), provider, source: 'eip6963' }])
  })

  it('adds a wallet that announces itself later (an extension loading after the page)', () => {
    const { onChange, latest } = watch()
    expect(onChange).not.toHaveBeenCalled()
    const first = fakeProvider()
    announce({ info: info('uuid-1'), provider: first })
    const second = fakeProvider()
    announce({ info: info('uuid-2', 'MetaMask', 'io.metamask'), provider: second })
    expect(onChange).toHaveBeenCalledTimes(2)
    expect(latest().map((w) => [w.info.uuid, w.provider])).toEqual([
      ['uuid-1', first],
      ['uuid-2', second],
    ])
  })

  it('ignores the same wallet announced again under the same uuid', () => {
    const { onChange, latest } = watch()
    const provider = fakeProvider()
    announce({ info: info('uuid-1'), provider })
    announce({ info: info('uuid-1'), provider })
    announce({ info: info('uuid-1'), provider })
    expect(onChange).toHaveBeenCalledTimes(1)
    expect(latest()).toHaveLength(1)
  })

  it('ignores announcements without a uuid or without a request function', () => {
    const { onChange } = watch()
    window.dispatchEvent(new CustomEvent('eip6963:announceProvider', { detail: undefined }))
    announce({ info: { ...info('x'), uuid: '' }, provider: fakeProvider() })
    announce({ info: info('uuid-1'), provider: {} as EIP1193Provider })
    expect(onChange).not.toHaveBeenCalled()
  })

  it('the stop function removes its listeners', () => {
    const { onChange, stop } = watch()
    stop()
    announce({ info: info('uuid-1'), provider: fakeProvider() })
    ;(window as { ethereum?: unknown }).ethereum = fakeProvider({ isMetaMask: true })
    window.dispatchEvent(new Event('ethereum#initialized'))
    expect(onChange).not.toHaveBeenCalled()
  })
})

describe('watchEthereumWallets (legacy window.ethereum)', () => {
  it.each([
    [{ isMetaMask: true }, 'MetaMask', 'io.metamask'],
    [{ isCoinbaseWallet: true }, 'Coinbase Wallet', 'com.coinbase.wallet'],
    [{ isRainbow: true, isMetaMask: true }, 'Rainbow', 'me.rainbow'],
    [{ isPhantom: true, isMetaMask: true }, 'Phantom', 'app.phantom'],
    [{ isRabby: true, isMetaMask: true }, 'Rabby', 'io.rabby'],
    [{ isBraveWallet: true, isMetaMask: true }, 'Brave Wallet', 'com.brave.wallet'],
    [{}, 'Browser Wallet', 'injected'],
  ])('names a window.ethereum with %o as %s (%s)', (flags, name, rdns) => {
    const provider = fakeProvider(flags)
    ;(window as { ethereum?: unknown }).ethereum = provider
    const { latest } = watch()
    expect(latest()).toEqual([
      { info: { uuid: `legacy:${rdns}`, name, icon: '', rdns }, provider, source: 'legacy' },
    ])
  })

  it('ignores a window.ethereum without a request function', () => {
    ;(window as { ethereum?: unknown }).ethereum = { isMetaMask: true }
    const { onChange } = watch()
    expect(onChange).not.toHaveBeenCalled()
  })

  it('lists the legacy provider after the announced ones', () => {
    const legacy = fakeProvider({ isMetaMask: true })
    ;(window as { ethereum?: unknown }).ethereum = legacy
    const { latest } = watch()
    const rabby = fakeProvider()
    announce({ info: info('uuid-1'), provider: rabby })
    expect(latest().map((w) => w.provider)).toEqual([rabby, legacy])
  })

  it('is not duplicated when the same object was announced', () => {
    const provider = fakeProvider({ isMetaMask: true })
    ;(window as { ethereum?: unknown }).ethereum = provider
    const { latest } = watch()
    expect(latest()).toHaveLength(1)
    announce({ info: info('uuid-mm', 'MetaMask', 'io.metamask'), provider })
    expect(latest()).toEqual([
      { info: info('uuid-mm', 'MetaMask', 'io.metamask'), provider, source: 'eip6963' },
    ])
  })

  it('picks up a window.ethereum set after load (ethereum#initialized)', () => {
    const { onChange, latest } = watch()
    expect(onChange).not.toHaveBeenCalled()
    const provider = fakeProvider({ isMetaMask: true })
    ;(window as { ethereum?: unknown }).ethereum = provider
    window.dispatchEvent(new Event('ethereum#initialized'))
    expect(latest()).toEqual([
      expect.objectContaining({
        provider,
        source: 'legacy',
        info: expect.objectContaining({ name: 'MetaMask' }),
      }),
    ])
  })
})
