import { LatchkeyError } from '@latchkey/core'
import { cleanup, render, screen, waitFor } from '@testing-library/react'
import { StrictMode } from 'react'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { useLatchkey } from './hooks/useLatchkey.ts'
import { LatchkeyProvider } from './LatchkeyProvider.tsx'
import { ErrorBoundary } from './test/ErrorBoundary.tsx'
import { API_URL, APP_ID, createFakeServer } from './test/fake-server.ts'

let server: ReturnType<typeof createFakeServer>
beforeEach(() => {
  localStorage.clear()
  server = createFakeServer()
  vi.stubGlobal('fetch', server.fetch)
  vi.spyOn(console, 'error').mockImplementation(() => {})
})
afterEach(() => {
  cleanup()
  vi.unstubAllGlobals()
  vi.restoreAllMocks()
})

function caught(ui: React.ReactNode): Promise<unknown> {
  return new Promise((resolve) => {
    render(<ErrorBoundary onError={resolve}>{ui}</ErrorBoundary>)
  })
}

function Status() {
  const { ready, authenticated } = useLatchkey()
  return <p>{ready ? (authenticated ? 'in' : 'out') : 'loading'}</p>
}

describe('LatchkeyProvider', () => {
  it('refuses an app id that is not 25 characters', async () => {
    const error = await caught(<LatchkeyProvider appId="short" apiUrl={API_URL} />)
    expect(error).toBeInstanceOf(LatchkeyError)
    expect((error as LatchkeyError).code).toBe('INVALID_APP_ID')
    expect((error as LatchkeyError).message).toBe('App ID must be a 25-character string')
  })

  it('refuses a second provider while one is mounted', async () => {
    let error: unknown
    render(
      <LatchkeyProvider appId={APP_ID} apiUrl={API_URL}>
        <Status />
        <ErrorBoundary onError={(e) => (error = e)}>
          <LatchkeyProvider appId={APP_ID} apiUrl={API_URL} />
        </ErrorBoundary>
      </LatchkeyProvider>,
    )
    await waitFor(() => expect(error).toBeDefined())
    expect((error as LatchkeyError).code).toBe('PROVIDER_ALREADY_MOUNTED')
    expect((error as LatchkeyError).message).toBe(
      'Only one LatchkeyProvider may be mounted at a time',
    )
    // The first provider carries on.
    expect(await screen.findByText('out')).toBeTruthy()
  })

  it('refuses a sibling provider', async () => {
    let error: unknown
    render(
      <>
        <LatchkeyProvider appId={APP_ID} apiUrl={API_URL}>
          <Status />
        </LatchkeyProvider>
        <ErrorBoundary onError={(e) => (error = e)}>
          <LatchkeyProvider appId={APP_ID} apiUrl={API_URL} />
        </ErrorBoundary>
      </>,
    )
    await waitFor(() => expect(error).toBeDefined())
    expect((error as LatchkeyError).code).toBe('PROVIDER_ALREADY_MOUNTED')
    expect(await screen.findByText('out')).toBeTruthy()
  })

  it('mounts again once the previous provider is gone', () => {
    const first = render(<LatchkeyProvider appId={APP_ID} apiUrl={API_URL} />)
    first.unmount()
    expect(() => render(<LatchkeyProvider appId={APP_ID} apiUrl={API_URL} />)).not.toThrow()
  })

  it('works under StrictMode and sends sdk_initialize once', async () => {
    render(
      <StrictMode>
        <LatchkeyProvider
          appId={APP_ID}
          apiUrl={API_URL}
          config={{ appearance: { theme: 'dark' } }}
        >
          <Status />
        </LatchkeyProvider>
      </StrictMode>,
    )
    expect(await screen.findByText('out')).toBeTruthy()
    await waitFor(() =>
      expect(server.calls.some((c) => c.path === `/api/v1/apps/${APP_ID}`)).toBe(true),
    )
    const events = server.calls.filter((c) => c.path === '/api/v1/analytics_events')
    expect(events).toHaveLength(1)
    expect(events[0]?.body).toMatchObject({ event_name: 'sdk_initialize' })
  })

  it('does not resend sdk_initialize when an inline config keeps its content', async () => {
    const ui = (label: string) => (
      <LatchkeyProvider appId={APP_ID} apiUrl={API_URL} config={{ loginMethods: ['email'] }}>
        <p>{label}</p>
      </LatchkeyProvider>
    )
    const { rerender } = render(ui('a'))
    rerender(ui('b'))
    await screen.findByText('b')
    expect(server.calls.filter((c) => c.path === '/api/v1/analytics_events')).toHaveLength(1)
  })

  it('fails configuration when no login method is enabled', async () => {
    const error = await caught(
      <LatchkeyProvider appId={APP_ID} apiUrl={API_URL} config={{ loginMethods: [] }} />,
    )
    expect((error as LatchkeyError).code).toBe('NO_LOGIN_METHODS')
    expect((error as LatchkeyError).message).toBe('You must enable at least one login method')
  })

  it('restores a stored session and reports ready', async () => {
    const { accessToken } = await import('./test/fake-server.ts')
    localStorage.setItem('latchkey:token', accessToken(Math.floor(Date.now() / 1000) + 3600))
    render(
      <LatchkeyProvider appId={APP_ID} apiUrl={API_URL}>
        <Status />
      </LatchkeyProvider>,
    )
    expect(screen.getByText('loading')).toBeTruthy()
    expect(await screen.findByText('in')).toBeTruthy()
  })

  it('hooks throw a clear error outside the provider', () => {
    expect(() => render(<Status />)).toThrow(
      'Latchkey hooks must be used inside <LatchkeyProvider>.',
    )
  })
})
