import { type LatchkeyConfig, LatchkeyProvider } from '@latchkey/react'
import { useMemo } from 'react'
import { ConfigError, ErrorBoundary } from './components/ConfigError.tsx'
import { Header } from './components/Header.tsx'
import { Home } from './components/Home.tsx'
import { readDemoConfig } from './config.ts'
import { useTheme } from './theme.ts'

export function App() {
  const [theme, toggleTheme] = useTheme()
  const { apiUrl, appId } = useMemo(() => readDemoConfig(), [])
  const config = useMemo<LatchkeyConfig>(
    () => ({
      appearance: { theme, loginMessage: 'Sign in to try every Latchkey capability.' },
      // Out of the box every user gets an Ethereum and a Solana wallet (automatic recovery).
      embeddedWallets: { createOnLogin: { ethereum: 'all-users', solana: 'all-users' } },
    }),
    [theme],
  )

  return (
    <div className="page">
      <Header theme={theme} onToggleTheme={toggleTheme} apiUrl={apiUrl} />
      <main className="main">
        {appId ? (
          <ErrorBoundary>
            <LatchkeyProvider appId={appId} apiUrl={apiUrl} config={config}>
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
