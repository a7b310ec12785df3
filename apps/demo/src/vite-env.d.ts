/// <reference types="vite/client" />

interface ImportMetaEnv {
  /** The Latchkey server's base URL. Default http://localhost:8787. */
  readonly VITE_LATCHKEY_API_URL?: string
  /** The app id (25 characters) from `npm run latchkey -- apps create`. */
  readonly VITE_LATCHKEY_APP_ID?: string
  /** WalletConnect Cloud project id; WalletConnect is offered only with one. */
  readonly VITE_WALLETCONNECT_PROJECT_ID?: string
  /** The local Anvil node (`npm start`: http://127.0.0.1:8545). */
  readonly VITE_DEMO_RPC_URL?: string
  /** The test ERC-20 and ERC-721 `npm start` deploys on it. */
  readonly VITE_DEMO_ERC20?: string
  readonly VITE_DEMO_ERC721?: string
  /** The local Solana ledger (`npm start`: http://127.0.0.1:8899). */
  readonly VITE_DEMO_SOLANA_RPC_URL?: string
}

interface ImportMeta {
  readonly env: ImportMetaEnv
}
