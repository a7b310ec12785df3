import { act, cleanup, screen } from '@testing-library/react'
import { hydrateRoot, type Root } from 'react-dom/client'
import { renderToString } from 'react-dom/server'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { useLatchkey } from './hooks/useLatchkey.ts'
import { LatchkeyProvider } from './LatchkeyProvider.tsx'
import { API_URL, APP_ID, accessToken, createFakeServer } from './test/fake-server.ts'

// docs/nextjs.md: the browser's first render of a server-rendered provider
// must match the server's HTML, whatever the browser has stored (a logged-in
// user's tokens), or React throws the server's HTML away with a hydration
// error. The session shows once hydrated.

function Status() {
  const { ready, authenticated, user } = useLatchkey()
  return (
    <p data-testid="status">
      {ready ? (authenticated ? `in as ${user?.email?.address}` : 'out') : 'loading'}
    </p>
  )
}

const app = (
  <LatchkeyProvider appId={APP_ID} apiUrl={API_URL} config={{ accessTokenCookie: true }}>
    <main>
      <Status />
    </main>
  </LatchkeyProvider>
)

let root: Root | null = null
beforeEach(() => {
  localStorage.clear()
  vi.stubGlobal('fetch', createFakeServer().fetch)
})
afterEach(() => {
  act(() => root?.unmount())
  root = null
  cleanup()
  document.body.innerHTML = ''
  document.cookie = 'latchkey-token=; Max-Age=0; Path=/'
  vi.unstubAllGlobals()
  vi.restoreAllMocks()
})

describe('LatchkeyProvider hydration', () => {
  it('hydrates the server HTML of a logged-in browser with no warning, then shows the user', async () => {
    // The server renders without the browser's storage.
    const html = renderToString(app)
    // This browser holds a session from an earlier visit.
    localStorage.setItem('latchkey:token', accessToken(Math.floor(Date.now() / 1000) + 3600))
    localStorage.setItem('latchkey:refresh_token', 'refresh-1')
    const container = document.createElement('div')
    container.innerHTML = html
    document.body.append(container)
    const serverStatus = container.querySelector('[data-testid="status"]')
    expect(serverStatus?.textContent).toBe('loading')
    const errors = vi.spyOn(console, 'error')
    const recoverable: unknown[] = []
    await act(async () => {
      root = hydrateRoot(container, app, { onRecoverableError: (e) => recoverable.push(e) })
    })
    expect(recoverable).toEqual([])
    expect(errors).not.toHaveBeenCalled()
    await vi.waitFor(() =>
      expect(screen.getByTestId('status').textContent).toBe('in as alice@example.com'),
    )
    // The server's elements were adopted, not replaced by a client render.
    expect(screen.getByTestId('status')).toBe(serverStatus)
    // With accessTokenCookie the token is in the cookie the next server render reads.
    expect(document.cookie).toContain(`latchkey-token=${localStorage.getItem('latchkey:token')}`)
  })
})
