import { StorageKey } from '@latchkey/protocol/constants'
import { act, cleanup, render, screen } from '@testing-library/react'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { useLatchkey } from './hooks/useLatchkey.ts'
import { LatchkeyProvider } from './LatchkeyProvider.tsx'
import { API_URL, APP_ID, accessToken, createFakeServer } from './test/fake-server.ts'

// docs/client.md "Sessions across tabs": what another tab of the app does
// to the session shows in this one's hooks without a reload.

let server: ReturnType<typeof createFakeServer>
beforeEach(() => {
  localStorage.clear()
  server = createFakeServer()
  vi.stubGlobal('fetch', server.fetch)
})
afterEach(() => {
  cleanup()
  vi.unstubAllGlobals()
  vi.restoreAllMocks()
  localStorage.clear()
})

function Session() {
  const { ready, authenticated, user } = useLatchkey()
  if (!ready) return <p>loading</p>
  return <p>{authenticated ? `in as ${user?.email?.address}` : 'out'}</p>
}

const renderApp = () =>
  render(
    <LatchkeyProvider appId={APP_ID} apiUrl={API_URL}>
      <Session />
    </LatchkeyProvider>,
  )

const tokenKeys = [StorageKey.accessToken, StorageKey.refreshToken]

/** Another tab's writes to the shared localStorage, and the `storage` events they fire here. */
function inOtherTab(write: () => void) {
  write()
  for (const key of tokenKeys)
    window.dispatchEvent(new StorageEvent('storage', { key, storageArea: localStorage }))
}

const storeTokens = () => {
  localStorage.setItem(StorageKey.accessToken, accessToken(Math.floor(Date.now() / 1000) + 3600))
  localStorage.setItem(StorageKey.refreshToken, 'refresh-1')
}

describe('LatchkeyProvider across tabs', () => {
  it('shows a logout in another tab without a reload, and makes no call of its own', async () => {
    storeTokens()
    renderApp()
    await screen.findByText('in as alice@example.com')

    act(() =>
      inOtherTab(() => {
        for (const key of tokenKeys) localStorage.removeItem(key)
      }),
    )
    await screen.findByText('out')
    expect(server.calls.filter((call) => call.path.startsWith('/api/v1/sessions'))).toEqual([])
  })

  it('shows a login in another tab without a reload', async () => {
    renderApp()
    await screen.findByText('out')

    act(() => inOtherTab(storeTokens))
    await screen.findByText('in as alice@example.com')
    expect(server.calls.filter((call) => call.path === '/api/v1/users/me')).toHaveLength(1)
  })
})
