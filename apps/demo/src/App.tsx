import { CrossAppProviderPage, type LatchkeyConfig, LatchkeyProvider } from '@latchkey/react'
import { useMemo } from 'react'
import { defineChain } from 'viem'
import { base, foundry, mainnet, optimism } from 'viem/chains'
import { ConfigError, ErrorBoundary } from './components/ConfigError.tsx'
import { Header } from './components/Header.tsx'
import { Home } from './components/Home.tsx'
import { readDemoConfig } from './config.ts'
import { useTheme } from './theme.ts'

export function App() {
  const [theme, toggleTheme] = useTheme()
  const demo = useMemo(() => readDemoConfig(), [])
  const { apiUrl, appId, passkeySignup, walletsFirst, crossApp } = demo
  // The local Anvil node at the URL `npm start` (or a test) runs it on.
  const local = useMemo(
    () => defineChain({ ...foundry, rpcUrls: { default: { http: [demo.localRpcUrl] } } }),
    [demo.localRpcUrl],
  )
  const config = useMemo<LatchkeyConfig>(
    () => ({
      appearance: {
        theme,
        loginMessage: 'Sign in to try every Latchkey capability.',
        // External wallets of both chains in the lists.
        walletChainType: 'ethereum-and-solana',
        ...(walletsFirst ? { loginGroupPriority: 'web3-first' as const } : {}),
      },
      // Chains external wallets are switched to before signing in, and transactions may use
      // (the local Anvil node included: the Send panel's chain).
      chains: [mainnet, base, optimism, local],
      defaultChain: mainnet,
      // Solana transactions go to the local ledger `npm start` runs (the Send panel's SOL).
      solanaClusters: [{ name: 'localnet', rpcUrl: demo.solanaRpcUrl }],
      externalWallets: {
        walletConnect: { projectId: import.meta.env.VITE_WALLETCONNECT_PROJECT_ID || undefined },
      },
      // Out of the box every user gets an Ethereum and a Solana wallet (automatic recovery).
      embeddedWallets: { createOnLogin: { ethereum: 'all-users', solana: 'all-users' } },
      // `?crossApp=<provider app id>`: email and that provider's cross-app login (docs/cross-app.md).
      ...(crossApp ? { loginMethods: ['email' as const, `latchkey:${crossApp}` as const] } : {}),
      // Passkey sign-up follows the app setting; `?passkeySignup=1` / `=0` overrides it.
      ...(passkeySignup === undefined
        ? {}
        : { loginConfig: { passkeysForSignupEnabled: passkeySignup } }),
    }),
    [theme, passkeySignup, walletsFirst, local, demo.solanaRpcUrl, crossApp],
  )

  return (
    <div className="page">
      <Header theme={theme} onToggleTheme={toggleTheme} apiUrl={apiUrl} />
      <main className="main">
        {appId ? (
          <ErrorBoundary>
            <LatchkeyProvider appId={appId} apiUrl={apiUrl} config={config}>
              {/* A requester app's popup (`?latchkey_cross_app=…`): consent and signing. */}
              <CrossAppProviderPage />
              <Home />
            </LatchkeyProvider>
          </ErrorBoundary>
        ) : (
          <ConfigError message="No app id configured." />
        )}
      </main>
      <footer className="page-footer">
        Latchkey demo · open-source login and embedded wallets
      </footer>
    </div>
  )
}
