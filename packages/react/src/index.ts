/**
 * `@latchkey/react`: the provider, hooks and login modal.
 *
 * @module
 * @example
 * import { LatchkeyProvider, useLatchkey } from '@latchkey/react'
 *
 * <LatchkeyProvider appId={appId} apiUrl="https://auth.example.com"><App /></LatchkeyProvider>
 *
 * function LoginButton() {
 *   const { ready, authenticated, login, logout } = useLatchkey()
 *   if (!ready) return null
 *   return authenticated ? <button onClick={logout}>Log out</button> : <button onClick={() => login()}>Log in</button>
 * }
 */

export {
  type CustomAuthState,
  type CustomJwtAccount,
  type EmailAccount,
  type EmbeddedWalletAccount,
  type ExternalWalletAccount,
  type FarcasterAccount,
  type FarcasterSigner,
  type GuestAccount,
  type KeyRelease,
  LatchkeyError,
  type LinkedAccount,
  type PasskeyAccount,
  type PasskeyFlowState,
  type PhoneAccount,
  ProviderRpcError,
  type TelegramAccount,
  type TelegramFlowState,
  type TelegramProof,
  type User,
} from '@latchkey/core'
export type {
  ConnectedEthereumExternalWallet,
  ConnectedExternalWallet,
  ConnectedSolanaExternalWallet,
  EIP1193Provider,
  EvmChain,
  WalletChainType,
} from '@latchkey/core/external'
export type { ErrorCode } from '@latchkey/protocol/errors'
export type {
  LatchkeyAppearance,
  LatchkeyConfig,
  LatchkeyLegal,
  UserOwnedRecoveryMethod,
} from './config.ts'
export {
  CrossAppProviderPage,
  type CrossAppProviderPageProps,
} from './cross-app/CrossAppProviderPage.tsx'
export type { SignOptions } from './hooks/signing.ts'
export { type UseCaptchaReturnType, useCaptcha } from './hooks/useCaptcha.ts'
export { useConnectWallet } from './hooks/useConnectWallet.ts'
export {
  type CrossAppTransaction,
  type UseCrossAppAccountsReturnType,
  useCrossAppAccounts,
} from './hooks/useCrossAppAccounts.ts'
export {
  type UseCustomAuthParameters,
  type UseCustomAuthReturnType,
  useCustomAuth,
} from './hooks/useCustomAuth.ts'
export {
  type DelegateWalletOptions,
  type RevokeWalletsOptions,
  type UseDelegatedActionsReturnType,
  useDelegatedActions,
} from './hooks/useDelegatedActions.ts'
export { type UseDeleteAccountReturnType, useDeleteAccount } from './hooks/useDeleteAccount.ts'
export {
  type ExportWalletOptions,
  useExportWallet,
} from './hooks/useExportWallet.ts'
export {
  type UseFarcasterSignerReturnType,
  useFarcasterSigner,
} from './hooks/useFarcasterSigner.ts'
export {
  type FundWalletAsset,
  type FundWalletOptions,
  type FundWalletResult,
  useFundWallet,
} from './hooks/useFundWallet.ts'
export { type UseGuestAccountReturnType, useGuestAccount } from './hooks/useGuestAccount.ts'
export {
  type UseKeyActivityParameters,
  type UseKeyActivityReturnType,
  useKeyActivity,
} from './hooks/useKeyActivity.ts'
export { type UseLatchkeyReturnType, useLatchkey } from './hooks/useLatchkey.ts'
export { type UseLinkAccountReturnType, useLinkAccount } from './hooks/useLinkAccount.ts'
export { type UseLoginParameters, type UseLoginReturnType, useLogin } from './hooks/useLogin.ts'
export {
  type UseLoginWithEmailParameters,
  type UseLoginWithEmailReturnType,
  useLoginWithEmail,
} from './hooks/useLoginWithEmail.ts'
export {
  type OAuthLoginState,
  type UseLoginWithOAuthParameters,
  type UseLoginWithOAuthReturnType,
  useLoginWithOAuth,
} from './hooks/useLoginWithOAuth.ts'
export {
  type UseLoginWithPasskeyParameters,
  type UseLoginWithPasskeyReturnType,
  useLoginWithPasskey,
} from './hooks/useLoginWithPasskey.ts'
export {
  type UseLoginWithSmsParameters,
  type UseLoginWithSmsReturnType,
  useLoginWithSms,
} from './hooks/useLoginWithSms.ts'
export {
  type UseLoginWithTelegramParameters,
  type UseLoginWithTelegramReturnType,
  useLoginWithTelegram,
} from './hooks/useLoginWithTelegram.ts'
export {
  type UseManagePasskeysReturnType,
  useManagePasskeys,
} from './hooks/useManagePasskeys.ts'
export { type UseMfaReturnType, useMfa } from './hooks/useMfa.ts'
export { type UseMfaEnrollmentReturnType, useMfaEnrollment } from './hooks/useMfaEnrollment.ts'
export {
  type RecoverWalletOptions,
  type UseRecoverWalletReturnType,
  useRecoverWallet,
} from './hooks/useRecoverWallet.ts'
export {
  type SendTransactionOptions,
  type SendTransactionReturnType,
  type UseSendTransactionReturnType,
  useSendTransaction,
} from './hooks/useSendTransaction.ts'
export {
  type SetWalletPasswordOptions,
  type UseSetWalletPasswordReturnType,
  useSetWalletPassword,
} from './hooks/useSetWalletPassword.ts'
export {
  type SetWalletRecoveryOptions,
  type UseSetWalletRecoveryReturnType,
  useSetWalletRecovery,
} from './hooks/useSetWalletRecovery.ts'
export {
  type SignMessageOptions,
  type SignMessageParameters,
  type SignMessageReturnType,
  type UseSignMessageReturnType,
  useSignMessage,
} from './hooks/useSignMessage.ts'
export {
  type SignSolanaMessageOptions,
  type SignSolanaMessageParameters,
  type SignSolanaMessageReturnType,
  type UseSignSolanaMessageReturnType,
  useSignSolanaMessage,
} from './hooks/useSignSolanaMessage.ts'
export {
  type SignTransactionOptions,
  type SignTransactionReturnType,
  type UseSignTransactionReturnType,
  useSignTransaction,
} from './hooks/useSignTransaction.ts'
export {
  type SignTypedDataOptions,
  type SignTypedDataReturnType,
  type TypedData,
  type UseSignTypedDataReturnType,
  useSignTypedData,
} from './hooks/useSignTypedData.ts'
export { type UseSmartWalletsReturnType, useSmartWallets } from './hooks/useSmartWallets.ts'
export {
  type ConnectedEthereumWallet,
  type ConnectedSolanaWallet,
  useCreateWallet,
  useImportWallet,
  useSolanaWallets,
  useWallets,
  type WalletRecovery,
} from './hooks/useWallets.ts'
export { LatchkeyLoginPanel, type LatchkeyLoginPanelProps } from './LatchkeyLoginPanel.tsx'
export { LatchkeyProvider, type LatchkeyProviderProps } from './LatchkeyProvider.tsx'
export type { FundWalletUiConfig } from './modal/funding/request.ts'
export type {
  SmartWalletClient,
  SmartWalletEthereumProvider,
} from './smart-wallets/client-types.ts'
export type { LoginOptions, LoginResult, SignMessageUiOptions } from './store.ts'
export type {
  EthereumScanOutcome,
  EthereumStepResult,
  TransactionUiOptions,
} from './transaction-requests.ts'
