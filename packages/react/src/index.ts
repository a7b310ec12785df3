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
  type User,
} from '@latchkey/core'
export type { ErrorCode } from '@latchkey/protocol/errors'
export type {
  LatchkeyAppearance,
  LatchkeyConfig,
  LatchkeyLegal,
} from './config.ts'
export { type UseLatchkeyReturnType, useLatchkey } from './hooks/useLatchkey.ts'
export { type UseLoginParameters, type UseLoginReturnType, useLogin } from './hooks/useLogin.ts'
export {
  type UseLoginWithEmailParameters,
  type UseLoginWithEmailReturnType,
  useLoginWithEmail,
} from './hooks/useLoginWithEmail.ts'
export {
  type ConnectedEthereumWallet,
  type ConnectedSolanaWallet,
  useCreateWallet,
  useSolanaWallets,
  useWallets,
  type WalletRecovery,
} from './hooks/useWallets.ts'
export { LatchkeyLoginPanel, type LatchkeyLoginPanelProps } from './LatchkeyLoginPanel.tsx'
export { LatchkeyProvider, type LatchkeyProviderProps } from './LatchkeyProvider.tsx'
export type { LoginOptions, LoginResult } from './store.ts'
