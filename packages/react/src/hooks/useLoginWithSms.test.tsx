import { act, cleanup, renderHook } from '@testing-library/react'
import type { ReactNode } from 'react'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { LatchkeyProvider } from '../LatchkeyProvider.tsx'
import { API_URL, APP_ID, accessToken, createFakeServer } from '../test/fake-server.ts'
import { useLoginWithSms } from './useLoginWithSms.ts'

const CODE = '246810'
const phoneCalls: Array<{ path: string; body: Record<string, unknown> }> = []

/** The shared fake server, plus the SMS routes answered as the real server does. */
function stubFetch(options: { channel?: 'sms' | 'whatsapp'; existing?: string[] } = {}) {
  const base = createFakeServer()
  const fetch = (async (input: RequestInfo | URL, init?: RequestInit) => {
    const path = new URL(String(input)).pathname
    if (!path.startsWith('/api/v1/passwordless_sms/')) return base.fetch(input, init)
    const body = JSON.parse(String(init?.body)) as Record<string, unknown>
    phoneCalls.push({ path, body })
    const json = (status: number, value: unknown) =>
      new Response(JSON.stringify(value), {
        status,
        headers: { 'content-type': 'application/json' },
      })
    if (path.endsWith('/init'))
      return json(200, { success: true, channel: options.channel ?? 'sms' })
    if (body.code !== CODE)
      return json(422, { code: 'INVALID_CODE', message: 'Invalid or expired verification code' })
    if (body.mode === 'no-signup' && !(options.existing ?? []).includes(String(body.phoneNumber)))
      return json(404, { code: 'USER_DOES_NOT_EXIST', message: 'No such user' })
    const now = Math.floor(Date.now() / 1000)
    return json(200, {
      user: {
        id: 'did:latchkey:user1',
        created_at: now,
        linked_accounts: [
          {
            type: 'phone',
            number: body.phoneNumber,
            verified_at: now,
            first_verified_at: now,
            latest_verified_at: now,
          },
        ],
        mfa_methods: [],
        has_accepted_terms: false,
        is_guest: false,
      },
      is_new_user: true,
      token: accessToken(now + 3600),
      refresh_token: 'refresh-1',
      identity_token: null,
      session_update_action: 'set',
    })
  }) as typeof globalThis.fetch
  vi.stubGlobal('fetch', fetch)
}

beforeEach(() => {
  localStorage.clear()
  phoneCalls.length = 0
})
afterEach(() => {
  cleanup()
  vi.unstubAllGlobals()
})

const wrapper = ({ children }: { children: ReactNode }) => (
  <LatchkeyProvider appId={APP_ID} apiUrl={API_URL}>
    {children}
  </LatchkeyProvider>
)

describe('useLoginWithSms', () => {
  it('sends a code to a phone number and logs in with it', async () => {
    stubFetch()
    const onComplete = vi.fn()
    const onError = vi.fn()
    const { result } = renderHook(() => useLoginWithSms({ onComplete, onError }), { wrapper })
    expect(result.current.state.status).toBe('initial')
    await act(() => result.current.sendCode({ phoneNumber: '+1 (415) 555-2671' }))
    expect(result.current.state).toMatchObject({
      status: 'awaiting-code-input',
      phoneNumber: '+14155552671',
      channel: 'sms',
    })
    expect(phoneCalls[0]).toEqual({
      path: '/api/v1/passwordless_sms/init',
      body: { phoneNumber: '+14155552671' },
    })

    await act(() => result.current.loginWithCode({ code: '999999' }))
    expect(result.current.state).toMatchObject({ status: 'error', step: 'submit' })
    expect(onError).toHaveBeenCalledWith('INVALID_CODE')

    await act(() => result.current.loginWithCode({ code: CODE }))
    expect(result.current.state.status).toBe('done')
    expect(onComplete).toHaveBeenCalledWith(
      expect.objectContaining({
        loginMethod: 'sms',
        isNewUser: true,
        wasAlreadyAuthenticated: false,
        user: expect.objectContaining({ phone: { number: '+14155552671' } }),
      }),
    )
    expect(localStorage.getItem(`latchkey:recent-login-method:${APP_ID}`)).toBe('sms')
  })

  it('passes disableSignup to the server and reports an unknown number', async () => {
    stubFetch()
    const onError = vi.fn()
    const { result } = renderHook(() => useLoginWithSms({ onError }), { wrapper })
    await act(() => result.current.sendCode({ phoneNumber: '+14155550101', disableSignup: true }))
    expect(phoneCalls[0]?.body).toMatchObject({ disableSignup: true })
    await act(() => result.current.loginWithCode({ code: CODE }))
    expect(phoneCalls[1]?.body).toMatchObject({ mode: 'no-signup' })
    expect(onError).toHaveBeenCalledWith('USER_DOES_NOT_EXIST')
  })

  it('exposes the WhatsApp channel', async () => {
    stubFetch({ channel: 'whatsapp' })
    const { result } = renderHook(() => useLoginWithSms(), { wrapper })
    await act(() => result.current.sendCode({ phoneNumber: '+447400123456' }))
    expect(result.current.state).toMatchObject({
      status: 'awaiting-code-input',
      channel: 'whatsapp',
    })
  })

  it('an impossible number fails without a request', async () => {
    stubFetch()
    const onError = vi.fn()
    const { result } = renderHook(() => useLoginWithSms({ onError }), { wrapper })
    await act(() => result.current.sendCode({ phoneNumber: '12' }))
    expect(result.current.state).toMatchObject({ status: 'error', step: 'send' })
    expect(onError).toHaveBeenCalledWith('INVALID_PHONE_NUMBER')
    expect(phoneCalls).toHaveLength(0)
  })
})
