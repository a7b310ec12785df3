// @vitest-environment node
import { LatchkeyProvider } from '@latchkey/react'
import { QueryClient, QueryClientProvider } from '@tanstack/react-query'
import { renderToString } from 'react-dom/server'
import { defineChain } from 'viem'
import { afterEach, describe, expect, it, vi } from 'vitest'
import {
  cookieStorage,
  cookieToInitialState,
  createConfig,
  createStorage,
  http,
  useConnection,
} from 'wagmi'
// @latchkey/react's test server constants, by path (docs-wagmi decision 6).
import { API_URL, APP_ID } from '../../react/src/test/fake-server.ts'
import { LatchkeyWagmiProvider } from './LatchkeyWagmiProvider.tsx'
import { devAccount } from './test/anvil-wallet.ts'
import { storedConnectionCookie } from './test/wagmi-cookie.ts'

// Server rendering (docs/wagmi.md "Server rendering"): a Next.js app renders
// <LatchkeyWagmiProvider> on the server, in Node, with wagmi's SSR set-up
// (`ssr: true`, cookie storage, `cookieToInitialState`). It must render there
// without a browser and without touching the network; the browser then
// hydrates that HTML (LatchkeyWagmiProvider.hydration.test.tsx).

const chain = defineChain({
  id: 31337,
  name: 'Local',
  nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
  rpcUrls: { default: { http: ['http://127.0.0.1:9'] } },
})

function Status() {
  const { status, address } = useConnection()
  return <p data-testid="wagmi">{`${status} ${address ?? 'none'}`}</p>
}

afterEach(() => vi.restoreAllMocks())

describe('LatchkeyWagmiProvider on the server', () => {
  it('renders with an ssr wagmi config in Node: no browser globals, nothing logged or fetched', () => {
    expect(typeof window).toBe('undefined')
    expect(typeof document).toBe('undefined')
    const errors = vi.spyOn(console, 'error')
    const warnings = vi.spyOn(console, 'warn')
    const fetches = vi.spyOn(globalThis, 'fetch')
    const config = createConfig({
      chains: [chain],
      transports: { [chain.id]: http() },
      ssr: true,
      storage: createStorage({ storage: cookieStorage }),
    })
    // The request's cookie from an earlier visit, with a Latchkey connection in it.
    const cookie = storedConnectionCookie(devAccount.address, chain.id)
    const initialState = cookieToInitialState(config, cookie)
    expect(initialState?.connections.size).toBe(1)

    const html = renderToString(
      <LatchkeyProvider appId={APP_ID} apiUrl={API_URL}>
        <QueryClientProvider client={new QueryClient()}>
          <LatchkeyWagmiProvider config={config} initialState={initialState}>
            <main>
              <Status />
            </main>
          </LatchkeyWagmiProvider>
        </QueryClientProvider>
      </LatchkeyProvider>,
    )
    // Latchkey's session decides what is connected, in the browser: the server shows no
    // connection, even one the cookie remembers (reconnectOnMount is off).
    expect(html).toBe('<main><p data-testid="wagmi">disconnected none</p></main>')
    expect(errors).not.toHaveBeenCalled()
    expect(warnings).not.toHaveBeenCalled()
    expect(fetches).not.toHaveBeenCalled()
    expect(typeof window).toBe('undefined')
    expect(typeof document).toBe('undefined')
  })
})
