import { cleanup } from '@testing-library/react'
import { getWallets } from '@wallet-standard/app'
import type { Wallet } from '@wallet-standard/base'
import * as standard from '@wallet-standard/wallet'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { renderWithProvider } from '../test/render.tsx'
import type { LatchkeyStandardWallet } from './LatchkeyStandardWallet.ts'

// LatchkeyProvider registers the "Latchkey" wallet once per page. Spying on
// `registerWallet` needs vi.mock, which gives this file its own module graph
// and page (vitest.config.ts): no other test file has registered it here.

vi.mock('@wallet-standard/wallet', async (original) => {
  const actual = await original<typeof import('@wallet-standard/wallet')>()
  return { ...actual, registerWallet: vi.fn(actual.registerWallet) }
})

afterEach(() => {
  cleanup()
  vi.unstubAllGlobals()
})

const FEATURES = [
  'solana:signAndSendTransaction',
  'solana:signMessage',
  'solana:signTransaction',
  'standard:connect',
  'standard:disconnect',
  'standard:events',
]

/**
 * @solana/wallet-adapter-base's `isWalletAdapterCompatibleStandardWallet`
 * (src/standard.ts): what `@solana/wallet-adapter-react` requires to list a
 * Standard wallet.
 */
const isWalletAdapterCompatibleStandardWallet = (wallet: Wallet) =>
  'standard:connect' in wallet.features &&
  'standard:events' in wallet.features &&
  ('solana:signAndSendTransaction' in wallet.features ||
    'solana:signTransaction' in wallet.features)

const latchkeyWallets = () =>
  getWallets()
    .get()
    .filter((wallet) => wallet.name === 'Latchkey')

/** The registered "Latchkey" wallet, now or when it registers. */
function registeredLatchkey(): Promise<Wallet> {
  const [now] = latchkeyWallets()
  if (now) return Promise.resolve(now)
  return new Promise((resolve) => {
    const off = getWallets().on('register', () => {
      const [wallet] = latchkeyWallets()
      if (!wallet) return
      off()
      resolve(wallet)
    })
  })
}

const CLUSTERS = [
  { name: 'devnet', rpcUrl: 'https://api.devnet.solana.com' },
  { name: 'localnet', rpcUrl: 'http://127.0.0.1:8899' },
]

describe('LatchkeyProvider and the Wallet Standard', () => {
  it('embeddedWallets.solana.walletStandard false: nothing is registered', async () => {
    renderWithProvider(null, { config: { embeddedWallets: { solana: { walletStandard: false } } } })
    // A provider that had asked for the registration module would have run its
    // `.then` before this import of the same module settles.
    await import('./register-wallet-standard.ts')
    expect(standard.registerWallet).not.toHaveBeenCalled()
    expect(latchkeyWallets()).toEqual([])
  })

  it('by default getWallets() lists "Latchkey" with exactly its features, on the app clusters; wallet-adapter lists it', async () => {
    renderWithProvider(null, { config: { solanaClusters: CLUSTERS } })
    const wallet = await registeredLatchkey()
    expect(Object.keys(wallet.features).sort()).toEqual(FEATURES)
    expect(wallet.version).toBe('1.0.0')
    expect(wallet.icon).toMatch(/^data:image\/svg\+xml;base64,/)
    expect(atob(wallet.icon.split(',')[1] as string)).toContain('<svg')
    expect(wallet.chains).toEqual(['solana:devnet', 'solana:localnet'])
    expect(wallet.accounts).toEqual([])
    expect(isWalletAdapterCompatibleStandardWallet(wallet)).toBe(true)
    const features = wallet.features as LatchkeyStandardWallet['features']
    for (const name of ['solana:signTransaction', 'solana:signAndSendTransaction'] as const)
      expect(features[name].supportedTransactionVersions).toEqual(['legacy', 0])

    // Once per page: a later provider answers through the same wallet.
    cleanup()
    renderWithProvider(null)
    await import('./register-wallet-standard.ts')
    expect(standard.registerWallet).toHaveBeenCalledTimes(1)
    expect(latchkeyWallets()).toEqual([wallet])
  })
})
