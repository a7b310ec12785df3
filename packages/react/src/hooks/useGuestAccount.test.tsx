import { act, cleanup, renderHook, waitFor } from '@testing-library/react'
import type { ReactNode } from 'react'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { LatchkeyProvider } from '../LatchkeyProvider.tsx'
import { API_URL, APP_ID } from '../test/fake-server.ts'
import { type IdentityCall, stubIdentityServer } from '../test/identity-server.ts'
import { useGuestAccount } from './useGuestAccount.ts'
import { useLatchkey } from './useLatchkey.ts'

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

describe('useGuestAccount', () => {
  it('logs in a guest', async () => {
    const { result } = renderHook(() => ({ guest: useGuestAccount(), session: useLatchkey() }), {
      wrapper,
    })
    await waitFor(() => expect(result.current.session.ready).toBe(true))
    await act(async () => {
      await result.current.guest.createGuestAccount()
    })
    expect(result.current.session.user?.isGuest).toBe(true)
    const body = calls.find((c) => c.path === '/api/v1/guest/authenticate')?.body as {
      guest_credential: string
    }
    expect(body.guest_credential).toMatch(/^[A-Za-z0-9_-]{43}$/)
    expect(localStorage.getItem(`latchkey:guest_credential:${APP_ID}`)).toBe(body.guest_credential)
  })
})
