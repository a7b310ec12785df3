import { cleanup, screen, waitFor } from '@testing-library/react'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { renderWithProvider } from '../test/render.tsx'
import { CrossAppProviderPage } from './CrossAppProviderPage.tsx'

// The provider app's page (docs/cross-app.md): without a request it draws
// nothing; with one and no session it opens the app's own login modal and
// posts nothing to the requester before the server has vouched for it.

const AUTHORIZE = `?${new URLSearchParams({
  latchkey_cross_app: 'authorize',
  requester_app_id: 'requesteraaaaaaaaaaaaaaaa',
  state: 's1',
  code_challenge: 'c'.repeat(43),
  origin: 'http://requester.test',
})}`

afterEach(() => {
  cleanup()
  vi.unstubAllGlobals()
})

describe('CrossAppProviderPage', () => {
  it('draws nothing on a page load without a cross-app request', async () => {
    const { server } = renderWithProvider(<CrossAppProviderPage search="" />)
    // Once the provider has loaded the app's configuration, still nothing.
    await waitFor(() =>
      expect(server.calls.some((c) => c.path.startsWith('/api/v1/apps/'))).toBe(true),
    )
    expect(screen.queryByTestId('lk-cross-app-page')).toBeNull()
    expect(screen.queryByRole('dialog')).toBeNull()
  })

  it('logs the user in to this app first, and posts nothing meanwhile', async () => {
    const opener = { postMessage: vi.fn() }
    vi.stubGlobal('opener', opener)
    renderWithProvider(<CrossAppProviderPage search={AUTHORIZE} onAnswered={vi.fn()} />)
    await screen.findByRole('dialog', {}, { timeout: 15_000 })
    await screen.findByRole('button', { name: 'Log in' }, { timeout: 15_000 })
    expect(opener.postMessage).not.toHaveBeenCalled()
    // A ceiling, not a budget: the first test of a worker to open the modal
    // loads its lazy screens (seconds on a loaded two-core machine).
  }, 20_000)
})
