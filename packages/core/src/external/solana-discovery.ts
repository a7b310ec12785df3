import { getWallets } from '@wallet-standard/app'
import type { Wallet, WalletAccount } from '@wallet-standard/base'

/** Features a Solana wallet needs for sign-in (spec 01 §5: message signing, or transactions for Ledger). */
export const SOLANA_CONNECT = 'standard:connect'
export const SOLANA_DISCONNECT = 'standard:disconnect'
export const SOLANA_EVENTS = 'standard:events'
export const SOLANA_SIGN_IN = 'solana:signIn'
export const SOLANA_SIGN_MESSAGE = 'solana:signMessage'
export const SOLANA_SIGN_TRANSACTION = 'solana:signTransaction'

export type { Wallet as StandardWallet, WalletAccount as StandardWalletAccount }

/**
 * The name Latchkey's own embedded Solana wallet registers under
 * (react/src/solana/LatchkeyStandardWallet.ts): it is no external wallet to
 * log in with.
 */
export const LATCHKEY_STANDARD_WALLET_NAME = 'Latchkey'

/** A Wallet Standard wallet that can sign a Solana sign-in (signIn, signMessage or signTransaction). */
export function isSolanaSignInWallet(wallet: Wallet): boolean {
  const features = wallet.features as Record<string, unknown>
  return (
    wallet.name !== LATCHKEY_STANDARD_WALLET_NAME &&
    wallet.chains.some((chain) => chain.startsWith('solana:')) &&
    SOLANA_CONNECT in features &&
    (SOLANA_SIGN_IN in features ||
      SOLANA_SIGN_MESSAGE in features ||
      SOLANA_SIGN_TRANSACTION in features)
  )
}

/**
 * Watches the Wallet Standard registry for Solana wallets (`@wallet-standard/app`)
 * and calls `onChange` with them after every registration.
 */
export function watchSolanaWallets(onChange: (wallets: Wallet[]) => void): () => void {
  const registry = getWallets()
  const emit = () => onChange(registry.get().filter(isSolanaSignInWallet))
  const offRegister = registry.on('register', emit)
  const offUnregister = registry.on('unregister', emit)
  emit()
  return () => {
    offRegister()
    offUnregister()
  }
}
