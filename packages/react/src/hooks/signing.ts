import { type EmbeddedWalletAccount, embeddedWallets, LatchkeyError } from '@latchkey/core'
import type { LatchkeyInstance, SignMessageUiOptions, WalletScreenRequest } from '../store.ts'

/** Options every signing hook takes. */
export interface SignOptions {
  /** Overrides of the screen's wording, 'Not now', or no screen at all (spec 03 uiOptions). */
  uiOptions?: SignMessageUiOptions
  /** Which embedded wallet signs. Default: the user's first wallet on the chain. */
  address?: string
}

/**
 * The embedded wallet to sign with: the one at `address`, else the first on
 * the chain. Without a logged-in user or such a wallet this throws, before
 * any screen opens.
 */
export function signingWallet(
  instance: LatchkeyInstance,
  chainType: 'ethereum' | 'solana',
  address?: string,
): EmbeddedWalletAccount {
  const { status, user } = instance.client.session.getState()
  if (status !== 'authenticated' || !user) throw new LatchkeyError('NOT_AUTHENTICATED')
  const wallets = embeddedWallets(user, chainType)
  // Ethereum addresses are case-insensitive (EIP-55 is only a checksum); base58 is not.
  const same = (a: string) =>
    chainType === 'ethereum' ? a.toLowerCase() === address?.toLowerCase() : a === address
  const wallet = address ? wallets.find((w) => same(w.address)) : wallets[0]
  if (!wallet)
    throw new LatchkeyError(
      'WALLET_NOT_FOUND',
      address
        ? `No embedded ${chainType} wallet found for address ${address}`
        : `No embedded ${chainType} wallet found; create one first`,
    )
  return wallet
}

/** Shows the sign-message screen, or signs straight away when `showWalletUIs` is false. */
export function requestSignature<T>(
  instance: LatchkeyInstance,
  request: WalletScreenRequest<T>,
): Promise<T> {
  return request.uiOptions.showWalletUIs === false
    ? request.sign()
    : instance.openWalletScreen(request)
}

/** UTF-8 bytes as 0x-hex, so personal_sign signs the text even when it looks like hex. */
export const utf8ToHex = (text: string) =>
  `0x${Array.from(new TextEncoder().encode(text), (b) => b.toString(16).padStart(2, '0')).join('')}`
