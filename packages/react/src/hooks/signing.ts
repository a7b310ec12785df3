import {
  connectEmbeddedWallet,
  type EmbeddedWalletAccount,
  embeddedWallets,
  ensureWalletReady,
  LatchkeyError,
  ProviderRpcError,
} from '@latchkey/core'
import { providerErrors } from '@latchkey/protocol/errors'
import type { RecoveryMethod } from '@latchkey/protocol/schemas'
import { consentStarter } from '../cloud.ts'
import type { LatchkeyInstance, SignMessageRequest, SignMessageUiOptions } from '../store.ts'
import type { ConnectWalletStep } from '../wallet-requests.ts'

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
 * What the connect-wallet screen (spec 03 "Connect wallet") runs for the
 * wallet with this secret: connect (recovering automatically where it can),
 * recover with a password, or leave for the cloud provider's consent.
 * `useExportWallet` puts it on its request as `connectWallet`, with
 * `minimumDisplayMs: CONNECT_WALLET_MIN_DISPLAY_FROM_EXPORT_MS`.
 *
 * @example
 * await instance.openWalletScreen({ screen: 'export-wallet', url, init,
 *   connectWallet: connectWalletStep(instance, wallet.entropyId, { minimumDisplayMs: 1_000 }) })
 */
export function connectWalletStep(
  instance: LatchkeyInstance,
  entropyId: string,
  { minimumDisplayMs }: { minimumDisplayMs?: number } = {},
): ConnectWalletStep {
  const { client } = instance
  return {
    connect: () => ensureWalletReady(client, entropyId),
    recover: (password) => ensureWalletReady(client, entropyId, password),
    startCloudRecovery: (provider) =>
      consentStarter(instance, { provider, action: 'recover', entropyId })(),
    minimumDisplayMs,
  }
}

/**
 * How a signing request recovers `wallet` on a new device: the sign screen
 * turns into the connect-wallet screen when signing answers RECOVERY_REQUIRED.
 */
export const recoveryHandlers = (instance: LatchkeyInstance, wallet: EmbeddedWalletAccount) => ({
  entropyId: wallet.entropyId,
  recovery: connectWalletStep(instance, wallet.entropyId),
})

/**
 * Shows the sign-message screen, or signs straight away when `showWalletUIs`
 * is false. Either way a wallet that needs the user to recover it on a new
 * device (password, cloud backup) goes through the connect-wallet screen
 * first (the sign screen turns into it; without the sign screen the modal
 * opens just for it).
 */
export async function requestSignature<T>(
  instance: LatchkeyInstance,
  request: SignMessageRequest<T>,
): Promise<T> {
  if (request.uiOptions.showWalletUIs !== false) return instance.openWalletScreen(request)
  try {
    return await request.sign()
  } catch (error) {
    if (!(error instanceof LatchkeyError && error.code === 'RECOVERY_REQUIRED' && request.recovery))
      throw error
    await openConnectWallet(instance, request.recovery)
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
 * Opens the connect-wallet screen on its own and resolves once the wallet is
 * usable on this device. Closing it rejects with what the screen was doing
 * (EMBEDDED_WALLET_CONNECT_EXITED, RECOVERY_EXITED), or after its failure
 * screen with the failure. A cloud consent leaves the page: the promise then
 * never settles here, and the recovery finishes when the user is back.
 */
export async function openConnectWallet(
  instance: LatchkeyInstance,
  step: ConnectWalletStep,
): Promise<void> {
  try {
    await instance.openWalletScreen<void>({ screen: 'connect-embedded-wallet', ...step })
  } catch (error) {
    throw isUserRejection(error) ? new LatchkeyError('EMBEDDED_WALLET_CONNECT_EXITED') : error
  }
}

/**
 * Makes sure the enclave holds this secret on this device: at once, without
 * any screen, when it does; else through the connect-wallet screen, which
 * recovers it (automatically, or with the user's password or cloud consent).
 */
export async function ensureRecovered(instance: LatchkeyInstance, entropyId: string) {
  const ready = await connectEmbeddedWallet(instance.client, entropyId).then(
    (answer) => answer.status === 'ready',
    // The screen connects again and shows the failure if it persists.
    () => false,
  )
  if (!ready) await openConnectWallet(instance, connectWalletStep(instance, entropyId))
}

/** The recovery method a RECOVERY_REQUIRED error names (core puts the enclave's answer in details). */
export function recoveryMethodOf(error: LatchkeyError): RecoveryMethod | null {
  const details = error.details as { recovery_method?: RecoveryMethod } | undefined
  return details?.recovery_method ?? null
}

/**
 * The embedded wallet a transaction is sent from: as {@link signingWallet},
 * but a missing wallet is spec 03's EMBEDDED_WALLET_NOT_FOUND — 'No wallet
 * found for address', or on Solana, for a named address, 'Cannot
 * sendSolanaTransaction before embedded wallet {address} is connected'.
 */
export function transactionWallet(
  instance: LatchkeyInstance,
  chainType: 'ethereum' | 'solana',
  address?: string,
): EmbeddedWalletAccount {
  try {
    return signingWallet(instance, chainType, address)
  } catch (error) {
    if (!(error instanceof LatchkeyError && error.code === 'WALLET_NOT_FOUND')) throw error
    throw new LatchkeyError(
      'EMBEDDED_WALLET_NOT_FOUND',
      chainType === 'solana' && address
        ? `Cannot sendSolanaTransaction before embedded wallet ${address} is connected`
        : undefined,
      { details: { address: address ?? null, chainType } },
    )
  }
}
