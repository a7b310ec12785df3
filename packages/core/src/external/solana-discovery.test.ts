import { getWallets } from '@wallet-standard/app'
import type { Wallet } from '@wallet-standard/base'
import { afterEach, describe, expect, it, vi } from 'vitest'
import {
  isSolanaSignInWallet,
  SOLANA_CONNECT,
  SOLANA_SIGN_IN,
  SOLANA_SIGN_MESSAGE,
  SOLANA_SIGN_TRANSACTION,
  watchSolanaWallets,
} from './solana-discovery.ts'

const feature = { version: '1.0.0' as const }

function standardWallet(
  name: string,
  { chains = ['solana:mainnet'], features = [SOLANA_CONNECT, SOLANA_SIGN_MESSAGE] } = {},
): Wallet {
  return {
    version: '1.0.0',
    name,
    icon: 'data:image/svg+xml;base64,PHN2Zy8+',
    chains: chains as Wallet['chains'],
    accounts: [],
    features: Object.fromEntries(features.map((f) => [f, feature])),
  }
}

const unregisters: Array<() => void> = []
const stops: Array<() => void> = []
const register = (...wallets: Wallet[]) => unregisters.push(getWallets().register(...wallets))

afterEach(() => {
  for (const stop of stops.splice(0)) stop()
  for (const unregister of unregisters.splice(0)) unregister()
})

describe('isSolanaSignInWallet', () => {
  it.each([SOLANA_SIGN_IN, SOLANA_SIGN_MESSAGE, SOLANA_SIGN_TRANSACTION])(
    'accepts a Solana wallet with standard:connect and %s',
    (signing) => {
      expect(
        isSolanaSignInWallet(standardWallet('W', { features: [SOLANA_CONNECT, signing] })),
      ).toBe(true)
    },
  )

  it('refuses a wallet without a solana: chain', () => {
    expect(isSolanaSignInWallet(standardWallet('Sui', { chains: ['sui:mainnet'] }))).toBe(false)
  })

  it('refuses a wallet without standard:connect', () => {
    expect(isSolanaSignInWallet(standardWallet('W', { features: [SOLANA_SIGN_MESSAGE] }))).toBe(
      false,
    )
  })

  it('refuses a Solana wallet that can sign nothing a sign-in needs', () => {
    expect(
      isSolanaSignInWallet(
        standardWallet('W', { features: [SOLANA_CONNECT, 'solana:signAndSendTransaction'] }),
      ),
    ).toBe(false)
  })
})

describe('watchSolanaWallets', () => {
  it('emits the registered Solana sign-in wallets at once, then on every (un)registration', () => {
    const phantom = standardWallet('Phantom')
    register(phantom)
    const onChange = vi.fn<(wallets: Wallet[]) => void>()
    stops.push(watchSolanaWallets(onChange))
    expect(onChange).toHaveBeenLastCalledWith([phantom])

    const sui = standardWallet('Sui Wallet', { chains: ['sui:mainnet'] })
    const solflare = standardWallet('Solflare')
    const unregister = getWallets().register(sui, solflare)
    expect(onChange).toHaveBeenLastCalledWith([phantom, solflare])

    unregister()
    expect(onChange).toHaveBeenLastCalledWith([phantom])
    expect(onChange).toHaveBeenCalledTimes(3)
  })

  it('the stop function unsubscribes from the registry', () => {
    const onChange = vi.fn()
    const stop = watchSolanaWallets(onChange)
    expect(onChange).toHaveBeenCalledTimes(1)
    stop()
    register(standardWallet('Backpack'))
    expect(onChange).toHaveBeenCalledTimes(1)
  })
})
