import type { PasskeyAccount, User } from '@latchkey/core'
import type { ErrorCode } from '@latchkey/protocol/errors'
import type { CloudRecoveryProvider, RecoveryMethod } from '@latchkey/protocol/schemas'
import type { UserOwnedRecoveryMethod } from './config.ts'
import type { ConnectWalletStep } from './connect-wallet-step.ts'
import type { CrossAppLoginRequest } from './modal/cross-app/request.ts'
import type { DelegatedActionsRequest } from './modal/delegated-actions/request.ts'
import type { FarcasterSignerRequest } from './modal/farcaster-signer/request.ts'
import type { FundWalletRequest } from './modal/funding/request.ts'
import type {
  EthereumTransactionRequest,
  SolanaTransactionRequest,
} from './transaction-requests.ts'

// Every wallet screen's request, in a file that imports no hook, store or
// screen: the hook that builds a request, the store that holds it and the
// screen that draws it can all name it without importing each other.

/**
 * A wallet screen opened outside the login flow: what it shows, and the
 * operation its confirm button runs (core does the work; the screen only
 * calls it).
 */
export type WalletScreenRequest<T = unknown> =
  | SignMessageRequest<T>
  | SetPasswordRequest
  | ExportWalletRequest
  | SecureAccountRequest
  | CloudRecoveryRequest
  | CreateWalletsRequest
  | ManagePasskeysRequest
  | DeleteAccountRequest
  | ConnectEmbeddedWalletRequest
  | MfaEnrollmentRequest
  | EthereumTransactionRequest
  | SolanaTransactionRequest
  | FundWalletRequest
  | FarcasterSignerRequest
  | DelegatedActionsRequest
  | CrossAppLoginRequest

export type { ConnectWalletStep, FundWalletRequest }

/**
 * The connect-wallet screen on its own (`useRecoverWallet`, signing without
 * the sign screen): resolves once the wallet is usable on this device.
 * Closing it rejects with EMBEDDED_WALLET_CONNECT_EXITED ('User exited before
 * wallet could be connected'), or RECOVERY_EXITED while it asks for a
 * password or a cloud consent; after its failure screen, with the failure.
 */
export interface ConnectEmbeddedWalletRequest extends ConnectWalletStep {
  screen: 'connect-embedded-wallet'
}

/** `uiOptions` of spec 03's "Sign message request": overrides of the screen's defaults. */
export interface SignMessageUiOptions {
  /** Default 'Sign message'. */
  title?: string
  /** Default 'Signing this message will not cost you any fees.' */
  description?: string
  /** Default 'Sign and continue'. */
  buttonText?: string
  /** Drawn above the title. */
  iconUrl?: string
  /** Offer a 'Not now' button. Default false (the close button is always there). */
  isCancellable?: boolean
  /** False signs at once, without the screen. Default true. */
  showWalletUIs?: boolean
}

/** EIP-712 typed data, as eth_signTypedData_v4 takes it. */
export interface TypedData {
  types: Record<string, ReadonlyArray<{ name: string; type: string }>>
  primaryType: string
  domain: Record<string, unknown>
  message: Record<string, unknown>
}

/** What the sign-message screen shows, per signing method. */
export type SignMessagePayload =
  | { method: 'personal_sign'; data: string }
  | { method: 'eth_signTypedData_v4'; data: TypedData }
  | { method: 'solana_signMessage'; data: Uint8Array }

export type SignMessageRequest<T = unknown> = {
  screen: 'sign-message'
  address: string
  uiOptions: SignMessageUiOptions
  sign(): Promise<T>
  /** The signing wallet's secret. */
  entropyId: string
  /**
   * When `sign()` fails with RECOVERY_REQUIRED (a password or a cloud backup
   * on a new device), the connect-wallet screen recovers the wallet with
   * this, then the signature goes on.
   */
  recovery?: ConnectWalletStep
} & SignMessagePayload

/**
 * Spec 02 "Passkey management": the user's passkeys (2 shown, then 'View
 * all'), unlink, 'Add new passkey' (up to 5), 'Passkeys updated' and Done.
 */
export interface ManagePasskeysRequest {
  screen: 'passkeys'
  /** The user's passkeys when the screen opens; it follows the users `link` / `unlink` return. */
  passkeys: PasskeyAccount[]
  /** 'Add new passkey': core `linkPasskey` (the browser's prompt, then the server). */
  link(): Promise<User>
  /** Unlink: core `unlinkPasskey`. */
  unlink(credentialId: string): Promise<User>
}

/**
 * Spec 02 "Multi-factor enrollment and management": 'Transaction Protection',
 * the method list, each method's setup and removal (`showMfaEnrollmentModal`).
 */
export interface MfaEnrollmentRequest {
  screen: 'mfa-enrollment'
}

/** A recovery method the user can pick on 'Secure your account' / 'Update backup method'. */
export type RecoveryOption = 'google-drive' | 'icloud' | 'user-passcode' | 'latchkey'

/**
 * Spec 02 "Secure your account" / "Update backup method": the user picks how
 * the wallet is recovered on a new device. Each choice opens its own flow
 * (password wizard, provider consent, 'Automatically secure your account').
 */
export interface SecureAccountRequest {
  screen: 'secure-account'
  /** 'secure': no user-owned method yet; 'update': change the current one. */
  mode: 'secure' | 'update'
  /** The wallet's method now (null while creating); a cloud one is not offered again. */
  currentMethod: RecoveryMethod | null
  /** What to offer, in order. */
  options: RecoveryOption[]
  /** The password wizard's 'Set Password'. */
  setPassword(password: string): Promise<unknown>
  /** 'Automatically secure your account' → Confirm. */
  setAutomatic(): Promise<unknown>
  /** Google Drive / iCloud: leaves for the provider's consent. */
  startConsent(provider: CloudRecoveryProvider): Promise<void>
  /** Started by the app (creation on login): no Cancel in the wizard, no way back. */
  automatic?: boolean
  /** The wallet is not usable on this device yet: the connect-wallet screen comes first. */
  connectWallet?: ConnectWalletStep
}

/**
 * Spec 02 "Confirm-identity screen and progress screen for Google Drive or
 * iCloud": before the redirect it asks to continue to the provider; after the
 * return it runs the backup or recovery, shows success for 1.4 s (or the
 * wallet-created greeting), or '{Recovery|Back up} with {provider}
 * unsuccessful' with Try again.
 */
export interface CloudRecoveryRequest {
  screen: 'cloud-recovery'
  provider: CloudRecoveryProvider
  action: 'backup' | 'recover'
  /** Continue / Try again: leaves for the provider's consent. */
  startConsent(): Promise<void>
  /** Set once the consent came back: the backup or recovery to run. */
  run?: () => Promise<unknown>
  /** The consent came back refused (denied, state mismatch). */
  failure?: ErrorCode
  /** After success, greet as the post-login wallet step does instead of closing after 1.4 s. */
  greeting?: { isNewUser: boolean; appName: string | null }
}

/** Spec 02 "Password wizard": create, save, confirm, finalize, done. */
export interface SetPasswordRequest {
  screen: 'set-password'
  /** Runs on 'Set Password' (core `setRecoveryPassword`). */
  setPassword(password: string): Promise<unknown>
  /** Started by the app rather than the user: no Cancel, and it closes itself once done. */
  automatic?: boolean
}

/** Spec 03 "Export": the enclave's export page, framed inside the modal. */
export interface ExportWalletRequest {
  screen: 'export-wallet'
  /** `${apiUrl}/apps/${appId}/embedded-wallets/export` */
  url: string
  /** The init message's data (access token, which wallet). */
  init: {
    access_token: string
    entropy_id: string
    chain_type: 'ethereum' | 'solana'
    wallet_index: number | null
    theme: 'light' | 'dark'
  }
  /** The export page copied a key to the clipboard (each time). */
  onCopied?(what: 'private_key' | 'seed_phrase'): void
  /**
   * The connect-wallet screen first (spec 03 §4: "From export, the screen
   * shows at least 1 s"): `connectWalletStep(instance, entropyId, {
   * minimumDisplayMs: CONNECT_WALLET_MIN_DISPLAY_FROM_EXPORT_MS })`.
   */
  connectWallet?: ConnectWalletStep
}

/**
 * The post-login wallet step (`embeddedWallets.createOnLogin`) for a login
 * the modal did not make (a guest's): 'Setting up your wallet', then the
 * greeting, and the modal closes 2.5 s later, as after a modal login.
 */
export interface CreateWalletsRequest {
  screen: 'wallet-creation'
  chains: Array<'ethereum' | 'solana'>
  isNewUser: boolean
  appName: string | null
  /** The app requires user-owned recovery: the methods to offer first (null: automatic recovery). */
  userOwnedRecovery: UserOwnedRecoveryMethod[] | null
}

/**
 * The account-deletion screen: 'Delete your account?', what goes with it, and
 * 'Delete account' (core `deleteAccount`) or 'Cancel'.
 */
export interface DeleteAccountRequest {
  screen: 'delete-account'
  /** The user has an embedded wallet: the screen warns that it goes too. */
  hasEmbeddedWallet: boolean
  /** 'Delete account': core `deleteAccount` (the enclave asks the server; then the local logout). */
  deleteAccount(): Promise<void>
  /** 'Export wallet': opens the export screen in its place (the deletion is left). */
  exportWallet?: () => Promise<void>
}
