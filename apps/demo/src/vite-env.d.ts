/// <reference types="vite/client" />

interface ImportMetaEnv {
  /** The Latchkey server's base URL. Default http://localhost:8787. */
  readonly VITE_LATCHKEY_API_URL?: string
  /** The app id (25 characters) from `npm run latchkey -- apps create`. */
  readonly VITE_LATCHKEY_APP_ID?: string
  /** WalletConnect Cloud project id; WalletConnect is offered only with one. */
  readonly VITE_WALLETCONNECT_PROJECT_ID?: string
}

interface ImportMeta {
  readonly env: ImportMetaEnv
}
