import { act, cleanup, renderHook, waitFor } from '@testing-library/react'
import type { ReactNode } from 'react'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { LatchkeyProvider } from '../LatchkeyProvider.tsx'
import { API_URL, APP_ID } from '../test/fake-server.ts'
import { type IdentityCall, stubIdentityServer } from '../test/identity-server.ts'
import { useCustomAuth } from './useCustomAuth.ts'
import { useLatchkey } from './useLatchkey.ts'

let calls: IdentityCall[]
beforeEach(() => {
  localStorage.clear()
  calls = stubIdentityServer().calls
})
afterEach(() => {
  cleanup()
  vi.useRealTimers()
  vi.unstubAllGlobals()
  vi.restoreAllMocks()
})

const wrapper = ({ children }: { children: ReactNode }) => (
  <LatchkeyProvider appId={APP_ID} apiUrl={API_URL}>
    {children}
  </LatchkeyProvider>
)

describe('useCustomAuth', () => {
  it('is not-enabled when off, exchanges the host token when logged in, logs out with the host', async () => {
    let token: string | null = 'host.jwt.token'
    const { result, rerender } = renderHook(
      (props: { enabled: boolean; isLoading: boolean; get: () => Promise<string | null> }) => ({
        sync: useCustomAuth({
          enabled: props.enabled,
          isLoading: props.isLoading,
          getCustomAccessToken: props.get,
        }),
        session: useLatchkey(),
      }),
      { wrapper, initialProps: { enabled: false, isLoading: true, get: async () => token } },
    )
    await waitFor(() => expect(result.current.sync.state.status).toBe('not-enabled'))
    rerender({ enabled: true, isLoading: true, get: async () => token })
    await waitFor(() => expect(result.current.sync.state.status).toBe('loading'))
    rerender({ enabled: true, isLoading: false, get: async () => token })
    await waitFor(() =>
      expect(result.current.sync.state).toEqual({ status: 'done', authenticated: true }),
    )
    expect(result.current.session.authenticated).toBe(true)
    expect(calls.find((c) => c.path === '/api/v1/custom_jwt_account/authenticate')?.body).toEqual({
      token: 'host.jwt.token',
      mode: 'login-or-sign-up',
    })
    token = null
    rerender({ enabled: true, isLoading: false, get: async () => token })
    await waitFor(() => expect(result.current.session.authenticated).toBe(false))
    expect(result.current.sync.state).toEqual({ status: 'done', authenticated: false })
  })
})

describe('useCustomAuth with an inline token function', () => {
  it('does not loop when the host passes a new function on every render', async () => {
    vi.useFakeTimers()
    let renders = 0
    const { result } = renderHook(
      () => {
        renders++
        return useCustomAuth({
          enabled: true,
          isLoading: false,
          getCustomAccessToken: async () => 'host.jwt.token',
        })
      },
      { wrapper },
    )
    await act(() => vi.advanceTimersByTimeAsync(0))
    expect(result.current.state).toEqual({ status: 'done', authenticated: true })
    const settled = renders
    // Whatever those renders could set off (syncs, retries, refreshes) has run by now: nothing.
    await act(() => vi.advanceTimersByTimeAsync(60_000))
    expect(renders).toBe(settled)
    expect(calls.filter((c) => c.path === '/api/v1/custom_jwt_account/authenticate')).toHaveLength(
      1,
    )
  })
})
