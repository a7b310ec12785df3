/**
 * Where the demo finds its Latchkey server and app. Build-time env vars
 * (VITE_LATCHKEY_API_URL, VITE_LATCHKEY_APP_ID) set the defaults; `?apiUrl=`
 * and `?appId=` in the page URL override them, so one build can point at any
 * server (handy for end-to-end tests). Passkey sign-up follows the app's
 * setting (`passkeys_for_signup_enabled`, on for `npm start`'s demo app);
 * `?passkeySignup=1` or `=0` overrides it through `loginConfig`. `?walletsFirst=1`
 * lays the landing screen out web3-first: the wallet list's wallets as rows.
 *
 * The Send panel works on the local chains `npm start` runs: Anvil (its URL
 * from VITE_DEMO_RPC_URL or `?rpcUrl=`) with a test ERC-20 and NFT it deploys
 * (VITE_DEMO_ERC20 / VITE_DEMO_ERC721, or `?erc20=` / `?erc721=`), and the
 * Solana ledger stand-in (VITE_DEMO_SOLANA_RPC_URL or `?solanaRpcUrl=`).
 */
export interface DemoConfig {
  apiUrl: string
  appId: string
  /** `loginConfig.passkeysForSignupEnabled`; undefined: the app's setting. */
  passkeySignup: boolean | undefined
  /** `appearance.loginGroupPriority: 'web3-first'`. */
  walletsFirst: boolean
  /** The local Anvil node's JSON-RPC URL. */
  localRpcUrl: string
  /** The test tokens on it, when deployed. */
  erc20: `0x${string}` | null
  erc721: `0x${string}` | null
  /** The local Solana ledger's JSON-RPC URL. */
  solanaRpcUrl: string
  /** `?crossApp=`: a provider app offered as `latchkey:{id}` (docs/cross-app.md). */
  crossApp: string | null
}

const address = (value: string | null | undefined) =>
  value && /^0x[0-9a-fA-F]{40}$/.test(value) ? (value as `0x${string}`) : null

export const DEFAULT_API_URL = 'http://localhost:8787'

export function readDemoConfig(search = globalThis.location?.search ?? ''): DemoConfig {
  const params = new URLSearchParams(search)
  return {
    apiUrl: params.get('apiUrl') || import.meta.env.VITE_LATCHKEY_API_URL || DEFAULT_API_URL,
    appId: params.get('appId') || import.meta.env.VITE_LATCHKEY_APP_ID || '',
    passkeySignup: { '1': true, '0': false }[params.get('passkeySignup') ?? ''],
    walletsFirst: params.get('walletsFirst') === '1',
    localRpcUrl:
      params.get('rpcUrl') || import.meta.env.VITE_DEMO_RPC_URL || 'http://127.0.0.1:8545',
    erc20: address(params.get('erc20') || import.meta.env.VITE_DEMO_ERC20),
    erc721: address(params.get('erc721') || import.meta.env.VITE_DEMO_ERC721),
    solanaRpcUrl:
      params.get('solanaRpcUrl') ||
      import.meta.env.VITE_DEMO_SOLANA_RPC_URL ||
      'http://127.0.0.1:8899',
    crossApp: params.get('crossApp'),
  }
}
