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
  type EmailAccount,
  type EmbeddedWalletAccount,
  LatchkeyError,
  type LinkedAccount,
  ProviderRpcError,
  type User,
} from '@latchkey/core'
export type { ErrorCode } from '@latchkey/protocol/errors'
export type {
  LatchkeyAppearance,
  LatchkeyConfig,
  LatchkeyLegal,
  UserOwnedRecoveryMethod,
} from './config.ts'
export type { SignOptions } from './hooks/signing.ts'
export {
  type ExportWalletOptions,
  useExportWallet,
} from './hooks/useExportWallet.ts'
export { type UseLatchkeyReturnType, useLatchkey } from './hooks/useLatchkey.ts'
export { type UseLoginParameters, type UseLoginReturnType, useLogin } from './hooks/useLogin.ts'
export {
  type UseLoginWithEmailParameters,
  type UseLoginWithEmailReturnType,
  useLoginWithEmail,
} from './hooks/useLoginWithEmail.ts'
export {
  type RecoverWalletOptions,
  type UseRecoverWalletReturnType,
  useRecoverWallet,
} from './hooks/useRecoverWallet.ts'
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
  type SignTypedDataOptions,
  type SignTypedDataReturnType,
  type TypedData,
  type UseSignTypedDataReturnType,
  useSignTypedData,
} from './hooks/useSignTypedData.ts'
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
export type { LoginOptions, LoginResult, SignMessageUiOptions } from './store.ts'
