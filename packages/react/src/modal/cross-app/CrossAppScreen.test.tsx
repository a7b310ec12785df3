import { createLatchkeyClient, loginWithCrossApp } from '@latchkey/core'
import { act, cleanup, render, screen } from '@testing-library/react'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { API_URL, APP_ID, accessToken, wireUser } from '../../test/fake-server.ts'
import CrossAppScreen from './CrossAppScreen.tsx'
import type { CrossAppLoginRequest } from './request.ts'

// The requester's 'Connecting to {app}' screen (spec 03 §2, §4, §8, §9) with
// fake timers, driving core's real loginWithCrossApp: the provider page's
// answer is a postMessage, the server a fetch double.

const PROVIDER_ID = 'provideraaaaaaaaaaaaaaaaa'
const PROVIDER_ORIGIN = 'http://provider.test'

function setup() {
  const listeners = new Set<(event: MessageEvent) => void>()
  const target = {
    addEventListener: (_: 'message', l: (event: MessageEvent) => void) => listeners.add(l),
    removeEventListener: (_: 'message', l: (event: MessageEvent) => void) => listeners.delete(l),
  }
  const popup = {
    closed: false,
    close() {
      this.closed = true
    },
    location: { href: 'about:blank' },
  }
  const calls: Array<{ path: string; body: unknown }> = []
  const fetch = (async (input: RequestInfo | URL, init?: RequestInit) => {
    const path = new URL(String(input)).pathname
    const body = typeof init?.body === 'string' ? JSON.parse(init.body) : undefined
    calls.push({ path, body })
    const json = (value: unknown) =>
      new Response(JSON.stringify(value), { headers: { 'content-type': 'application/json' } })
    if (path === `/api/v1/apps/${PROVIDER_ID}/cross-app/details`)
      return json({
        id: PROVIDER_ID,
        name: 'Provider',
        logo_url: null,
        custom_api_url: `${PROVIDER_ORIGIN}/wallet`,
        read_only: false,
      })
    if (path === '/api/v1/cross-app/authenticate') {
      const now = Math.floor(Date.now() / 1000)
      return json({
        user: wireUser('alice@example.com', now),
        is_new_user: false,
        token: accessToken(now + 3600),
        refresh_token: 'refresh-1',
        identity_token: null,
        session_update_action: 'set',
        cross_app: {
          provider_app_id: PROVIDER_ID,
          token: 't'.repeat(43),
          read_only: false,
          expires_at: now * 1000 + 1e9,
        },
      })
    }
    return json({})
  }) as typeof globalThis.fetch
  const client = createLatchkeyClient({
    appId: APP_ID,
    apiUrl: API_URL,
    fetch,
    cookies: { get: () => null, set: () => {}, remove: () => {} },
    http: { sleep: async () => {}, maxRetries: 0 },
  })
  const request: CrossAppLoginRequest = {
    screen: 'cross-app',
    providerAppId: PROVIDER_ID,
    popup,
    run: (p, onConnecting) =>
      loginWithCrossApp(client, { appId: PROVIDER_ID, popup: p, onConnecting, target }),
  }
  const post = (data: unknown, origin = PROVIDER_ORIGIN) => {
    for (const l of [...listeners]) l({ data, origin } as MessageEvent)
  }
  const stateSent = () => new URL(popup.location.href).searchParams.get('state') as string
  return { request, popup, post, calls, stateSent, client }
}

const elapse = (ms = 0) => act(() => vi.advanceTimersByTimeAsync(ms))

// The timers the flow uses are fake; setImmediate stays real, to wait for
// WebCrypto (the PKCE challenge) without moving the clock.
beforeEach(() => {
  vi.useFakeTimers({
    toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'Date'],
  })
})

/** Until the popup points at the provider's page: the 300 ms poll and the 2 minutes have started. */
async function connecting() {
  for (
    let i = 0;
    i < 100 && !screen.queryByRole('heading', { name: 'Connecting to Provider' });
    i++
  )
    await act(() => new Promise<void>((resolve) => setImmediate(resolve)))
  expect(screen.getByRole('heading', { name: 'Connecting to Provider' })).toBeTruthy()
}
afterEach(() => {
  cleanup()
  vi.useRealTimers()
})

describe('CrossAppScreen', () => {
  it('connecting, the provider’s code, success, and a close after 1.4 s', async () => {
    const s = setup()
    const onDone = vi.fn()
    const onClose = vi.fn()
    render(<CrossAppScreen request={s.request} onDone={onDone} onClose={onClose} />)
    await connecting()
    expect(screen.getByRole('heading', { name: 'Connecting to Provider' })).toBeTruthy()
    expect(screen.getByText('Please check the pop-up window to continue.')).toBeTruthy()
    const url = new URL(s.popup.location.href)
    expect(url.origin + url.pathname).toBe(`${PROVIDER_ORIGIN}/wallet`)
    expect(url.searchParams.get('latchkey_cross_app')).toBe('authorize')
    expect(url.searchParams.get('requester_app_id')).toBe(APP_ID)
    expect(url.searchParams.get('code_challenge')).toMatch(/^[A-Za-z0-9_-]{43}$/)
    s.post({ type: 'latchkey:cross-app', result: 'code', code: 'the-code', state: s.stateSent() })
    await elapse()
    expect(
      screen.getByRole('heading', { name: 'Successfully connected with Provider' }),
    ).toBeTruthy()
    const trade = s.calls.find((c) => c.path === '/api/v1/cross-app/authenticate')
    expect(trade?.body).toMatchObject({ provider_app_id: PROVIDER_ID, code: 'the-code' })
    expect(onDone).toHaveBeenCalledOnce()
    await elapse(1399)
    expect(onClose).not.toHaveBeenCalled()
    await elapse(1)
    expect(onClose).toHaveBeenCalledOnce()
  })

  it('another state is a phishing attempt: nothing is traded', async () => {
    const s = setup()
    render(<CrossAppScreen request={s.request} onDone={vi.fn()} onClose={vi.fn()} />)
    await connecting()
    s.post({ type: 'latchkey:cross-app', result: 'code', code: 'x', state: 'forged' })
    await elapse()
    expect(screen.getByRole('heading', { name: 'Authentication failed' })).toBeTruthy()
    expect(screen.getByRole('alert').textContent).toBe(
      'Unexpected auth flow. This may be a phishing attempt.',
    )
    expect(s.calls.some((c) => c.path === '/api/v1/cross-app/authenticate')).toBe(false)
  })

  it('a closed popup is ‘User canceled flow’ at the next 300 ms poll', async () => {
    const s = setup()
    render(<CrossAppScreen request={s.request} onDone={vi.fn()} onClose={vi.fn()} />)
    await connecting()
    s.popup.closed = true
    await elapse(299)
    expect(screen.queryByRole('alert')).toBeNull()
    await elapse(1)
    expect(screen.getByRole('alert').textContent).toBe('User canceled flow')
  })

  it('no answer in 2 minutes times out', async () => {
    const s = setup()
    render(<CrossAppScreen request={s.request} onDone={vi.fn()} onClose={vi.fn()} />)
    await connecting()
    await elapse(119_999)
    expect(screen.queryByRole('alert')).toBeNull()
    await elapse(1)
    expect(screen.getByRole('alert').textContent).toBe(
      'Cross-app authorization timed out after 2 minutes',
    )
  })

  it('a decline is ‘User rejected request’', async () => {
    const s = setup()
    render(<CrossAppScreen request={s.request} onDone={vi.fn()} onClose={vi.fn()} />)
    await connecting()
    s.post({ type: 'latchkey:cross-app', result: 'rejected', state: s.stateSent() })
    await elapse()
    expect(screen.getByRole('alert').textContent).toBe('User rejected request')
  })
})
