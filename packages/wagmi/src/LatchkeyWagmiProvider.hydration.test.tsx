import { LatchkeyProvider } from '@latchkey/react'
import { QueryClient, QueryClientProvider } from '@tanstack/react-query'
import { act, cleanup, screen } from '@testing-library/react'
import { hydrateRoot, type Root } from 'react-dom/client'
import { renderToString } from 'react-dom/server'
import { defineChain } from 'viem'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import {
  type Config,
  cookieStorage,
  cookieToInitialState,
  createConfig,
  createStorage,
  http,
  type State,
  useConnection,
} from 'wagmi'
// Neighbouring packages' test wiring, by path (docs-wagmi decision 6).
import { walletWire } from '../../core/src/test/enclave-client.ts'
import {
  API_URL,
  APP_ID,
  accessToken,
  createFakeServer,
  wireUser,
} from '../../react/src/test/fake-server.ts'
import { LatchkeyWagmiProvider } from './LatchkeyWagmiProvider.tsx'
import { devAccount } from './test/anvil-wallet.ts'
import { storedConnectionCookie } from './test/wagmi-cookie.ts'

// docs/wagmi.md "Server rendering": the browser's first render of a
// server-rendered <LatchkeyWagmiProvider> (wagmi `ssr: true`) must match the
// server's HTML, whatever the browser holds (a logged-in user's session), or
// React throws that HTML away with a hydration error. wagmi then connects to
// the user's embedded wallet once hydrated.

const chain = defineChain({
  id: 31337,
  name: 'Local',
  nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
  // Nothing here reaches a node: accounts and chain are the embedded wallet's own.
  rpcUrls: { default: { http: ['http://127.0.0.1:9'] } },
})

function Status() {
  const { status, address } = useConnection()
  return <p data-testid="wagmi">{`${status} ${address ?? 'none'}`}</p>
}

/**
 * The app as both sides render it: one wagmi config per side, as Next.js has,
 * and the initial state the server read from the request's cookie.
 */
const app = (config: Config, initialState: State | undefined) => (
  <LatchkeyProvider
    appId={APP_ID}
    apiUrl={API_URL}
    config={{ chains: [chain], defaultChain: chain, accessTokenCookie: true }}
  >
    <QueryClientProvider client={new QueryClient()}>
      <LatchkeyWagmiProvider config={config} initialState={initialState}>
        <main>
          <Status />
        </main>
      </LatchkeyWagmiProvider>
    </QueryClientProvider>
  </LatchkeyProvider>
)

const ssrConfig = () =>
  createConfig({
    chains: [chain],
    transports: { [chain.id]: http() },
    ssr: true,
    storage: createStorage({ storage: cookieStorage }),
    multiInjectedProviderDiscovery: false,
  })

let root: Root | null = null
beforeEach(() => {
  localStorage.clear()
  // The Latchkey server of the react package's tests, its user holding an embedded wallet.
  const server = createFakeServer()
  vi.stubGlobal('fetch', async (input: RequestInfo | URL, init?: RequestInit) => {
    if (new URL(String(input)).pathname !== '/api/v1/users/me') return server.fetch(input, init)
    const user = wireUser('alice@example.com', Math.floor(Date.now() / 1000))
    user.linked_accounts.push(walletWire(devAccount.address, 'ethereum', 0) as never)
    return new Response(JSON.stringify({ user, identity_token: null }), {
      headers: { 'content-type': 'application/json' },
    })
  })
})
afterEach(() => {
  act(() => root?.unmount())
  root = null
  cleanup()
  document.body.innerHTML = ''
  document.cookie = 'latchkey-token=; Max-Age=0; Path=/'
  document.cookie = 'wagmi.store=; Max-Age=0; Path=/'
  vi.unstubAllGlobals()
  vi.restoreAllMocks()
})

describe('LatchkeyWagmiProvider hydration', () => {
  it("hydrates the server HTML of a logged-in browser with no warning, then connects wagmi to the user's wallet", async () => {
    // An earlier visit left wagmi's cookie (a Latchkey connection) and Latchkey's session.
    const cookie = storedConnectionCookie(devAccount.address, chain.id)
    const server = ssrConfig()
    const initialState = cookieToInitialState(server, cookie)
    // The server renders with the request's cookie only, without the browser's storage.
    const html = renderToString(app(server, initialState))
    document.cookie = cookie
    localStorage.setItem('latchkey:token', accessToken(Math.floor(Date.now() / 1000) + 3600))
    localStorage.setItem('latchkey:refresh_token', 'refresh-1')
    const container = document.createElement('div')
    container.innerHTML = html
    document.body.append(container)
    const serverStatus = container.querySelector('[data-testid="wagmi"]')
    expect(serverStatus?.textContent).toBe('disconnected none')

    const errors = vi.spyOn(console, 'error')
    const recoverable: unknown[] = []
    await act(async () => {
      root = hydrateRoot(container, app(ssrConfig(), initialState), {
        onRecoverableError: (e) => recoverable.push(e),
      })
    })
    expect(recoverable).toEqual([])
    expect(errors).not.toHaveBeenCalled()
    // Once the session is restored, wagmi is on the embedded wallet: wagmi's own
    // rehydration from its cookie (the earlier visit's connection) has not undone it.
    await vi.waitFor(() =>
      expect(screen.getByTestId('wagmi').textContent).toBe(`connected ${devAccount.address}`),
    )
    // The server's elements were adopted, not replaced by a client render.
    expect(screen.getByTestId('wagmi')).toBe(serverStatus)
  })
})
