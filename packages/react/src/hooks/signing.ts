import {
  type EmbeddedWalletAccount,
  embeddedWallets,
  ensureWalletReady,
  LatchkeyError,
  ProviderRpcError,
} from '@latchkey/core'
import { providerErrors } from '@latchkey/protocol/errors'
import type { CloudRecoveryProvider, RecoveryMethod } from '@latchkey/protocol/schemas'
import { consentStarter, openCloudRecoveryConsent } from '../cloud.ts'
import type { LatchkeyInstance, SignMessageRequest, SignMessageUiOptions } from '../store.ts'

/** Options every signing hook takes. */
export interface SignOptions {
  /** Overrides of the screen's wording, 'Not now', or no screen at all (spec 03 uiOptions). */
  uiOptions?: SignMessageUiOptions
  /** Which embedded wallet signs. Default: the user's first wallet on the chain. */
  address?: string
}

/**
 * The embedded wallet to sign with: the one at `address`, else the first on
 * the chain. Without a logged-in user it opens the login modal and throws
 * NOT_AUTHENTICATED; without such a wallet it throws WALLET_NOT_FOUND.
 */
export function signingWallet(
  instance: LatchkeyInstance,
  chainType: 'ethereum' | 'solana',
  address?: string,
): EmbeddedWalletAccount {
  const { status, user } = instance.client.session.getState()
  if (status !== 'authenticated' || !user) {
    // Spec 02 §6: a logged-out user is sent to login; this call still fails.
    if (status === 'unauthenticated') instance.openLogin()
    throw new LatchkeyError('NOT_AUTHENTICATED')
  }
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

/**
 * How a signing request recovers `wallet` on a new device (spec 02): with its
 * password, or by leaving for its cloud provider's consent.
 */
export const recoveryHandlers = (instance: LatchkeyInstance, wallet: EmbeddedWalletAccount) => ({
  entropyId: wallet.entropyId,
  recover: (password: string) => ensureWalletReady(instance.client, wallet.entropyId, password),
  startCloudRecovery: (provider: CloudRecoveryProvider) =>
    consentStarter(instance, { provider, action: 'recover', entropyId: wallet.entropyId })(),
})

/**
 * Shows the sign-message screen, or signs straight away when `showWalletUIs`
 * is false. Either way a password-protected wallet on a new device asks for
 * its password first (the screen switches to it; without the screen the
 * modal opens just for it).
 */
export async function requestSignature<T>(
  instance: LatchkeyInstance,
  request: SignMessageRequest<T>,
): Promise<T> {
  if (request.uiOptions.showWalletUIs !== false) return instance.openWalletScreen(request)
  try {
    return await request.sign()
  } catch (error) {
    if (!(error instanceof LatchkeyError && error.code === 'RECOVERY_REQUIRED' && request.recover))
      throw error
    const method = recoveryMethodOf(error)
    if (method === 'google-drive' || method === 'icloud') {
      await openCloudRecoveryConsent(instance, method, request.entropyId).catch((e: unknown) => {
        throw isUserRejection(e) ? new LatchkeyError('RECOVERY_EXITED') : e
      })
      throw new LatchkeyError('RECOVERY_EXITED')
    }
    await openRecoverWallet(instance, request.recover)
    return request.sign()
  }
}

/** UTF-8 bytes as 0x-hex, so personal_sign signs the text even when it looks like hex. */
export const utf8ToHex = (text: string) =>
  `0x${Array.from(new TextEncoder().encode(text), (b) => b.toString(16).padStart(2, '0')).join('')}`

/** Closing a wallet screen is the 4001 rejection; this turns it into the screen's own exit error. */
export const isUserRejection = (error: unknown) =>
  error instanceof ProviderRpcError && error.code === providerErrors.userRejectedRequest.code

/**
 * Opens 'Enter your password' and resolves once `recover` (core
 * `ensureWalletReady` with the password) succeeded; closing it rejects with
 * RECOVERY_EXITED ('User exited before their wallet could be recovered').
 */
export async function openRecoverWallet(
  instance: LatchkeyInstance,
  recover: (password: string) => Promise<void>,
): Promise<void> {
  try {
    await instance.openWalletScreen<void>({ screen: 'recover-wallet', recover })
  } catch (error) {
    throw isUserRejection(error) ? new LatchkeyError('RECOVERY_EXITED') : error
  }
}

/**
 * Makes sure the enclave holds this secret on this device: at once when it
 * does or recovery is automatic, else after the user typed the password.
 */
export async function ensureRecovered(instance: LatchkeyInstance, entropyId: string) {
  try {
    await ensureWalletReady(instance.client, entropyId)
  } catch (error) {
    if (!(error instanceof LatchkeyError && error.code === 'RECOVERY_REQUIRED')) throw error
    const method = recoveryMethodOf(error)
    if (method === 'google-drive' || method === 'icloud') {
      // The consent leaves the page; the recovery finishes when the user is back.
      await openCloudRecoveryConsent(instance, method, entropyId).catch((e: unknown) => {
        throw isUserRejection(e) ? new LatchkeyError('RECOVERY_EXITED') : e
      })
      return
    }
    await openRecoverWallet(instance, (password) =>
      ensureWalletReady(instance.client, entropyId, password),
    )
  }
}

/** The recovery method a RECOVERY_REQUIRED error names (core puts the enclave's answer in details). */
export function recoveryMethodOf(error: LatchkeyError): RecoveryMethod | null {
  const details = error.details as { recovery_method?: RecoveryMethod } | undefined
  return details?.recovery_method ?? null
}
