import { oauthPendingKey } from '@latchkey/core'
import { act, cleanup, renderHook, waitFor } from '@testing-library/react'
import type { ReactNode } from 'react'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { LatchkeyProvider } from '../LatchkeyProvider.tsx'
import { API_URL, APP_ID, accessToken, createFakeServer, wireUser } from '../test/fake-server.ts'
import { useLoginWithOAuth } from './useLoginWithOAuth.ts'

interface Call {
  path: string
  body: Record<string, unknown> | undefined
}
let calls: Call[]
let initStatus: number

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } })

beforeEach(() => {
  localStorage.clear()
  sessionStorage.clear()
  calls = []
  initStatus = 200
  const base = createFakeServer()
  vi.stubGlobal('fetch', async (input: RequestInfo | URL, init?: RequestInit) => {
    const path = new URL(String(input)).pathname
    const body = typeof init?.body === 'string' ? JSON.parse(init.body) : undefined
    calls.push({ path, body })
    if (path === '/api/v1/oauth/init')
      return initStatus === 200
        ? json(200, { url: 'https://accounts.example/auth' })
        : json(403, { code: 'LOGIN_METHOD_NOT_ALLOWED', message: 'Not allowed' })
    if (path === '/api/v1/oauth/authenticate') {
      if (body.authorization_code === 'bad')
        return json(400, { code: 'OAUTH_INVALID_CODE', message: 'Invalid code during OAuth flow.' })
      const now = Math.floor(Date.now() / 1000)
      return json(200, {
        user: wireUser('g@example.com', now),
        is_new_user: true,
        token: accessToken(now + 3600),
        refresh_token: 'refresh-1',
        identity_token: null,
        session_update_action: 'set',
      })
    }
    return base.fetch(input, init)
  })
})
afterEach(() => {
  cleanup()
  vi.unstubAllGlobals()
  vi.restoreAllMocks()
  history.replaceState(null, '', '/')
})

const wrapper = ({ children }: { children: ReactNode }) => (
  <LatchkeyProvider appId={APP_ID} apiUrl={API_URL}>
    {children}
  </LatchkeyProvider>
)

function pendingLogin(state: string) {
  sessionStorage.setItem(
    oauthPendingKey(APP_ID),
    JSON.stringify({
      provider: 'google',
      intent: 'login',
      disableSignup: false,
      stateCode: state,
      codeVerifier: 'v'.repeat(64),
      createdAt: Date.now(),
    }),
  )
}

// Spec 01 §2: the state names the provider (core's oauth-state.ts).
const STATE = `google.${'s'.repeat(43)}`

describe('useLoginWithOAuth', () => {
  it("finishes this tab's provider return on mount and reports the login", async () => {
    const state = STATE
    pendingLogin(state)
    history.replaceState(null, '', `/?code=abc&state=${state}&keep=1`)
    const onComplete = vi.fn()
    const { result } = renderHook(() => useLoginWithOAuth({ onComplete }), { wrapper })
    await waitFor(() => expect(result.current.state.status).toBe('done'))
    expect(location.search).toBe('?keep=1')
    expect(calls.find((c) => c.path === '/api/v1/oauth/authenticate')?.body).toEqual({
      provider: 'google',
      authorization_code: 'abc',
      state_code: state,
      code_verifier: 'v'.repeat(64),
      mode: 'login-or-sign-up',
    })
    expect(onComplete).toHaveBeenCalledWith(
      expect.objectContaining({ loginMethod: 'google', isNewUser: true }),
    )
  })

  it('reports a denial and a foreign state as errors', async () => {
    pendingLogin(STATE)
    history.replaceState(null, '', `/?code=undefined&state=${STATE}`)
    const onError = vi.fn()
    const { result } = renderHook(() => useLoginWithOAuth({ onError }), { wrapper })
    await waitFor(() => expect(result.current.state.status).toBe('error'))
    expect(onError).toHaveBeenCalledWith('OAUTH_INVALID_CODE')
    cleanup()

    pendingLogin(STATE)
    history.replaceState(null, '', `/?code=abc&state=google.${'x'.repeat(43)}`)
    const second = renderHook(() => useLoginWithOAuth({ onError }), { wrapper })
    await waitFor(() => expect(second.result.current.state.status).toBe('error'))
    expect(onError).toHaveBeenLastCalledWith('OAUTH_STATE_MISMATCH')
    expect(calls.some((c) => c.path === '/api/v1/oauth/authenticate')).toBe(false)
  })

  it('a return with no pending login in this tab: removed, and OAUTH_LOGIN_EXPIRED', async () => {
    history.replaceState(null, '', `/?code=abc&state=${STATE}&keep=1`)
    const onError = vi.fn()
    const { result } = renderHook(() => useLoginWithOAuth({ onError }), { wrapper })
    await waitFor(() => expect(result.current.state.status).toBe('error'))
    expect(result.current.state.provider).toBe('google')
    expect(onError).toHaveBeenCalledWith('OAUTH_LOGIN_EXPIRED')
    expect(location.search).toBe('?keep=1')
    expect(calls.some((c) => c.path === '/api/v1/oauth/authenticate')).toBe(false)
  })

  it("leaves code and state alone when the state names no provider (the app's own OAuth)", async () => {
    history.replaceState(null, '', `/?code=abc&state=${'s'.repeat(43)}`)
    const { result } = renderHook(() => useLoginWithOAuth(), { wrapper })
    expect(result.current.state.status).toBe('initial')
    expect(location.search).toBe(`?code=abc&state=${'s'.repeat(43)}`)
  })

  it('does nothing on a page without a return', async () => {
    const { result } = renderHook(() => useLoginWithOAuth(), { wrapper })
    expect(result.current.state.status).toBe('initial')
  })

  it('initOAuth asks the server and leaves for the provider; a refusal lands in state', async () => {
    const assign = vi.fn()
    vi.spyOn(window.location, 'assign').mockImplementation(assign)
    const onError = vi.fn()
    const { result } = renderHook(() => useLoginWithOAuth({ onError }), { wrapper })
    await act(() =>
      result.current.initOAuth({ provider: 'github', disableSignup: true, captchaToken: 'solved' }),
    )
    expect(assign).toHaveBeenCalledWith('https://accounts.example/auth')
    expect(result.current.state).toMatchObject({ status: 'loading', provider: 'github' })
    expect(calls.find((c) => c.path === '/api/v1/oauth/init')?.body).toMatchObject({
      provider: 'github',
      intent: 'login',
      token: 'solved',
    })

    initStatus = 403
    await act(() => result.current.initOAuth({ provider: 'github' }))
    expect(result.current.state.status).toBe('error')
    expect(onError).toHaveBeenCalledWith('LOGIN_METHOD_NOT_ALLOWED')
  })
})
