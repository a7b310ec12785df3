// @vitest-environment node
import { renderToString } from 'react-dom/server'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { useLatchkey } from './hooks/useLatchkey.ts'
import { LatchkeyProvider } from './LatchkeyProvider.tsx'
import { API_URL, APP_ID } from './test/fake-server.ts'

// Server rendering (docs/nextjs.md): Next.js renders a client component's
// first pass on the server, in Node, where there is no window, document or
// localStorage. The provider must render there, and render what the
// browser's first pass renders (LatchkeyProvider.hydration.test.tsx).

function Status() {
  const { ready, authenticated } = useLatchkey()
  return <p data-testid="status">{ready ? (authenticated ? 'in' : 'out') : 'loading'}</p>
}

afterEach(() => vi.restoreAllMocks())

describe('LatchkeyProvider on the server', () => {
  it('renders its children in Node, with no browser globals and nothing logged', () => {
    expect(typeof window).toBe('undefined')
    expect(typeof document).toBe('undefined')
    expect(typeof localStorage).toBe('undefined')
    const errors = vi.spyOn(console, 'error')
    const warnings = vi.spyOn(console, 'warn')
    const fetches = vi.spyOn(globalThis, 'fetch')
    const html = renderToString(
      <LatchkeyProvider appId={APP_ID} apiUrl={API_URL} config={{ accessTokenCookie: true }}>
        <main>
          <Status />
        </main>
      </LatchkeyProvider>,
    )
    // The session is restored in the browser: the server renders the loading state.
    expect(html).toBe('<main><p data-testid="status">loading</p></main>')
    expect(errors).not.toHaveBeenCalled()
    expect(warnings).not.toHaveBeenCalled()
    // Nothing leaves the server while rendering (the app config, analytics: after mount).
    expect(fetches).not.toHaveBeenCalled()
    // Rendering defined no browser global for whatever renders next.
    expect(typeof window).toBe('undefined')
    expect(typeof document).toBe('undefined')
  })

  it('still refuses a bad app id with the spec message', () => {
    expect(() => renderToString(<LatchkeyProvider appId="short" apiUrl={API_URL} />)).toThrow(
      'App ID must be a 25-character string',
    )
  })
})
