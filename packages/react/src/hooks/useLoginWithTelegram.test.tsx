import { act, cleanup, renderHook } from '@testing-library/react'
import type { ReactNode } from 'react'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { LatchkeyProvider } from '../LatchkeyProvider.tsx'
import { API_URL, APP_ID } from '../test/fake-server.ts'
import {
  type IdentityCall,
  REFUSED_TELEGRAM_HASH,
  stubIdentityServer,
} from '../test/identity-server.ts'
import { useLoginWithTelegram } from './useLoginWithTelegram.ts'

let calls: IdentityCall[]
beforeEach(() => {
  localStorage.clear()
  calls = stubIdentityServer().calls
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
const hash = 'a'.repeat(64)

describe('useLoginWithTelegram', () => {
  it('logs in with the return parameters in the address bar and removes them', async () => {
    history.replaceState(null, '', `/?id=42&first_name=Ada&auth_date=1700000000&hash=${hash}&x=1`)
    const onComplete = vi.fn()
    const { result } = renderHook(() => useLoginWithTelegram({ onComplete }), { wrapper })
    let sent = false
    await act(async () => {
      sent = await result.current.login()
    })
    expect(sent).toBe(true)
    expect(location.search).toBe('?x=1')
    expect(result.current.state.status).toBe('success')
    expect(calls.find((c) => c.path === '/api/v1/telegram/authenticate')?.body).toEqual({
      telegram_auth_result: { id: 42, first_name: 'Ada', auth_date: 1700000000, hash },
      mode: 'login-or-sign-up',
    })
    expect(onComplete).toHaveBeenCalledWith(
      expect.objectContaining({ loginMethod: 'telegram', wasAlreadyAuthenticated: false }),
    )
  })

  it('uses Mini App initData when there is no return, and reports failures', async () => {
    history.replaceState(null, '', '/')
    vi.stubGlobal('Telegram', { WebApp: { initData: 'user=%7B%7D&hash=b' } })
    const onError = vi.fn()
    const { result } = renderHook(() => useLoginWithTelegram({ onError, disableSignup: true }), {
      wrapper,
    })
    await act(() => result.current.login())
    expect(calls.find((c) => c.path === '/api/v1/telegram/authenticate')?.body).toEqual({
      telegram_web_app_data: 'user=%7B%7D&hash=b',
      mode: 'no-signup',
    })
    await act(() =>
      result.current.login({
        telegramAuthResult: { id: 1, auth_date: 1, hash: REFUSED_TELEGRAM_HASH },
      }),
    )
    expect(result.current.state).toMatchObject({ status: 'failure', retryable: true })
    expect(onError).toHaveBeenCalledWith('AUTHENTICATION_FAILED')
  })

  it('resolves false when there is nothing to send', async () => {
    history.replaceState(null, '', '/')
    const { result } = renderHook(() => useLoginWithTelegram(), { wrapper })
    let sent = true
    await act(async () => {
      sent = await result.current.login()
    })
    expect(sent).toBe(false)
    expect(result.current.state.status).toBe('initial')
  })

  it("redirects to Telegram's login page with the app's bot, or refuses when not configured", async () => {
    const assign = vi.fn()
    vi.spyOn(window, 'location', 'get').mockReturnValue({
      ...window.location,
      origin: 'http://app.test',
      href: 'http://app.test/login',
      assign,
    })
    const { result } = renderHook(() => useLoginWithTelegram(), { wrapper })
    await act(() => result.current.redirectToTelegram())
    const url = new URL(assign.mock.calls[0]?.[0])
    expect(url.searchParams.get('bot_id')).toBe('7000000001')
    expect(url.searchParams.get('return_to')).toBe('http://app.test/login')
    cleanup()
    stubIdentityServer({ telegramConfig: null })
    const onError = vi.fn()
    const refused = renderHook(() => useLoginWithTelegram({ onError }), { wrapper })
    await expect(refused.result.current.redirectToTelegram()).rejects.toMatchObject({
      code: 'TELEGRAM_NOT_ALLOWED',
    })
    expect(onError).toHaveBeenCalledWith('TELEGRAM_NOT_ALLOWED')
    expect(assign).toHaveBeenCalledTimes(1)
  })
})
