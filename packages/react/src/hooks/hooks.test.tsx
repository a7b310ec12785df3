import { act, cleanup, fireEvent, renderHook, screen, waitFor } from '@testing-library/react'
import type { ReactNode } from 'react'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { LatchkeyLoginPanel } from '../LatchkeyLoginPanel.tsx'
import { LatchkeyProvider } from '../LatchkeyProvider.tsx'
import { ALREADY_LOGGED_IN_WARNING } from '../store.ts'
import { API_URL, APP_ID, accessToken, createFakeServer } from '../test/fake-server.ts'
import { renderWithProvider } from '../test/render.tsx'
import { useLatchkey } from './useLatchkey.ts'
import { useLogin } from './useLogin.ts'
import { useLoginWithEmail } from './useLoginWithEmail.ts'

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
})

const wrapper = ({ children }: { children: ReactNode }) => (
  <LatchkeyProvider appId={APP_ID} apiUrl={API_URL}>
    {children}
  </LatchkeyProvider>
)
const logIn = () =>
  localStorage.setItem('latchkey:token', accessToken(Math.floor(Date.now() / 1000) + 3600))

describe('useLatchkey', () => {
  it('reads the session and logs out', async () => {
    logIn()
    const { result } = renderHook(() => useLatchkey(), { wrapper })
    expect(result.current.ready).toBe(false)
    await waitFor(() => expect(result.current.authenticated).toBe(true))
    expect(result.current.user?.email?.address).toBe('alice@example.com')
    expect(await result.current.getAccessToken()).toMatch(/\./)
    await act(() => result.current.logout())
    expect(result.current.authenticated).toBe(false)
    expect(result.current.user).toBeNull()
    expect(await result.current.getAccessToken()).toBeNull()
  })

  it('refuses login() with a warning while a user is logged in', async () => {
    logIn()
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {})
    const { result } = renderHook(() => useLatchkey(), { wrapper })
    await waitFor(() => expect(result.current.authenticated).toBe(true))
    act(() => result.current.login())
    expect(warn).toHaveBeenCalledWith(ALREADY_LOGGED_IN_WARNING)
    expect(screen.queryByRole('dialog')).toBeNull()
  })
})

describe('useLogin', () => {
  it('reports an existing session as wasAlreadyAuthenticated', async () => {
    logIn()
    vi.spyOn(console, 'warn').mockImplementation(() => {})
    const onComplete = vi.fn()
    const { result } = renderHook(
      () => ({ session: useLatchkey(), login: useLogin({ onComplete }) }),
      { wrapper },
    )
    await waitFor(() => expect(result.current.session.authenticated).toBe(true))
    act(() => result.current.login.login())
    expect(onComplete).toHaveBeenCalledWith(
      expect.objectContaining({
        wasAlreadyAuthenticated: true,
        isNewUser: false,
        loginMethod: null,
      }),
    )
  })
})

describe('useLoginWithEmail', () => {
  it('sends a code and logs in with it', async () => {
    const onComplete = vi.fn()
    const onError = vi.fn()
    const { result } = renderHook(() => useLoginWithEmail({ onComplete, onError }), { wrapper })
    expect(result.current.state.status).toBe('initial')
    await act(() => result.current.sendCode({ email: 'alice@example.com' }))
    expect(result.current.state.status).toBe('awaiting-code-input')

    await act(() => result.current.loginWithCode({ code: '999999' }))
    expect(result.current.state).toMatchObject({ status: 'error', step: 'submit' })
    expect(onError).toHaveBeenCalledWith('INVALID_CODE')

    await act(() => result.current.loginWithCode({ code: server.code }))
    expect(result.current.state.status).toBe('done')
    expect(onComplete).toHaveBeenCalledWith(
      expect.objectContaining({
        loginMethod: 'email',
        isNewUser: true,
        wasAlreadyAuthenticated: false,
      }),
    )
  })

  it('passes disableSignup to the server', async () => {
    const onError = vi.fn()
    const { result } = renderHook(() => useLoginWithEmail({ onError }), { wrapper })
    await act(() => result.current.sendCode({ email: 'nobody@example.com', disableSignup: true }))
    expect(result.current.state.status).toBe('error')
    expect(onError).toHaveBeenCalledWith('USER_DOES_NOT_EXIST')
    expect(server.calls.find((c) => c.path === '/api/v1/passwordless/init')?.body).toMatchObject({
      disableSignup: true,
    })
  })
})

describe('LatchkeyLoginPanel', () => {
  it('draws the login screens in place, without a dialog', async () => {
    renderWithProvider(<LatchkeyLoginPanel />)
    const email = await screen.findByRole('textbox', { name: 'Email address' })
    expect(screen.queryByRole('dialog')).toBeNull()
    expect(screen.queryByRole('button', { name: 'Close' })).toBeNull()
    fireEvent.change(email, { target: { value: 'alice@example.com' } })
    fireEvent.click(screen.getByRole('button', { name: 'Submit' }))
    expect(await screen.findByRole('textbox', { name: 'Digit 1 of 6' })).toBeTruthy()
  })
})
