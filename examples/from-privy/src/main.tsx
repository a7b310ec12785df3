import { LatchkeyProvider } from '@latchkey/react'
import { StrictMode } from 'react'
import { createRoot } from 'react-dom/client'
import { App } from './App.tsx'

const appId: string | undefined = import.meta.env.VITE_LATCHKEY_APP_ID
const apiUrl: string = import.meta.env.VITE_LATCHKEY_API_URL ?? 'http://localhost:8787'
if (!appId) throw new Error('Set VITE_LATCHKEY_APP_ID in .env: npx latchkey apps create --name …')
const root = document.getElementById('root')
if (!root) throw new Error('index.html has no #root')

createRoot(root).render(
  <StrictMode>
    <LatchkeyProvider
      appId={appId}
      apiUrl={apiUrl}
      config={{
        embeddedWallets: {
          createOnLogin: { ethereum: 'users-without-wallets', solana: 'users-without-wallets' },
        },
        appearance: { walletChainType: 'ethereum-and-solana' },
      }}
    >
      <App />
    </LatchkeyProvider>
  </StrictMode>,
)
