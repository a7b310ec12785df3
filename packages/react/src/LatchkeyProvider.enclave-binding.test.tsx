import { attachEnclave, type LatchkeyClient } from '@latchkey/core'
import { Header } from '@latchkey/protocol/constants'
import { act, cleanup, renderHook, waitFor } from '@testing-library/react'
import type { ReactNode } from 'react'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { useLatchkeyInstance } from './context.ts'
import { useLoginWithEmail } from './hooks/useLoginWithEmail.ts'
import { LatchkeyProvider } from './LatchkeyProvider.tsx'
import { APP_ID, createFakeServer } from './test/fake-server.ts'

// docs/security.md "Key routes answer only to the enclave": the provider
// frames the enclave when it mounts, and every login it makes carries the
// enclave key's thumbprint, so the server binds the session to that key.

/** The enclave may run here (localhost); happy-dom cannot load the frame itself. */
const API = 'http://localhost:8787'
const JKT = 'NzbLsXh8uDCcd-6MNwXF4W_7noWXFZAfHkxZsRGC9Xs'

let server: ReturnType<typeof createFakeServer>
beforeEach(() => {
  localStorage.clear()
  server = createFakeServer()
  vi.stubGlobal('fetch', server.fetch)
  // happy-dom reports the frame it does not load; the bridge warns about it.
  vi.spyOn(console, 'error').mockImplementation(() => {})
  vi.spyOn(console, 'warn').mockImplementation(() => {})
})
afterEach(() => {
  cleanup()
  vi.unstubAllGlobals()
  vi.restoreAllMocks()
})

const wrapper = ({ children }: { children: ReactNode }) => (
  <LatchkeyProvider appId={APP_ID} apiUrl={API}>
    {children}
  </LatchkeyProvider>
)

/** The enclave's frame stood in for by a bridge whose ready message announced `JKT`. */
function stubEnclave(client: LatchkeyClient) {
  attachEnclave(client, {
    origin: API,
    request: vi.fn(),
    keyThumbprint: async () => JKT,
    destroy() {},
  })
}

describe('LatchkeyProvider binds sessions to the enclave', () => {
  it('frames the enclave at mount', async () => {
    renderHook(() => useLatchkeyInstance(), { wrapper })
    // Once the bridge's code has loaded: it is not on the first chunk (docs/first-load.md).
    await waitFor(() =>
      expect(document.querySelector('iframe')?.getAttribute('src')).toBe(
        `${API}/apps/${APP_ID}/embedded-wallets`,
      ),
    )
  })

  it("sends the enclave key's thumbprint with a login", async () => {
    const { result } = renderHook(
      () => ({ instance: useLatchkeyInstance(), email: useLoginWithEmail() }),
      { wrapper },
    )
    stubEnclave(result.current.instance.client)
    await act(() => result.current.email.sendCode({ email: 'alice@example.com' }))
    await act(() => result.current.email.loginWithCode({ code: server.code }))
    await waitFor(() => expect(result.current.email.state.status).toBe('done'))
    const login = server.calls.find((c) => c.path === '/api/v1/passwordless/authenticate')
    expect(login?.headers[Header.enclaveKey]).toBe(JKT)
    // Only the login: the send-code request creates no session.
    const send = server.calls.find((c) => c.path === '/api/v1/passwordless/init')
    expect(send?.headers[Header.enclaveKey]).toBeUndefined()
  })

  it('stops asking the enclave once unmounted', async () => {
    const { result, unmount } = renderHook(() => useLatchkeyInstance(), { wrapper })
    const { client } = result.current
    stubEnclave(client)
    expect(await client.sessionKey()).toBe(JKT)
    unmount()
    expect(await client.sessionKey()).toBeUndefined()
  })
})
