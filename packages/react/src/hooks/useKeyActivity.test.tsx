import { act, cleanup, fireEvent, render, screen } from '@testing-library/react'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { LatchkeyProvider } from '../LatchkeyProvider.tsx'
import { API_URL, APP_ID, accessToken, createFakeServer } from '../test/fake-server.ts'
import { useKeyActivity } from './useKeyActivity.ts'
import { useLatchkey } from './useLatchkey.ts'

// useKeyActivity against a scripted server: fetched on login, refreshed on
// demand, emptied on logout, failures reported as a LatchkeyError.

const release = (n: number, kind: 'auth_share' | 'recovery') => ({
  id: `r${n}`,
  kind,
  entropy_id: '0x00000000000000000000000000000000000000aa',
  created_at: 1_900_000_000 + n,
  session_id: 's1',
  enclave_key_thumbprint: null,
  ip: `203.0.113.${n}`,
  user_agent: 'TestBrowser/1.0',
})

let rows: ReturnType<typeof release>[]
let failNext: boolean
let queries: string[]
const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } })

beforeEach(() => {
  localStorage.clear()
  rows = [release(2, 'recovery'), release(1, 'auth_share')]
  failNext = false
  queries = []
  const base = createFakeServer()
  vi.stubGlobal('fetch', async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = new URL(String(input))
    if (url.pathname === '/api/v1/embedded_wallets/key_activity') {
      queries.push(url.search)
      if (failNext) {
        failNext = false
        return json(429, { code: 'TOO_MANY_REQUESTS', message: 'Slow down' })
      }
      return json(200, { data: rows, next_cursor: null })
    }
    return base.fetch(input, init)
  })
})
afterEach(() => {
  cleanup()
  vi.unstubAllGlobals()
})

function Activity() {
  const { ready, logout } = useLatchkey()
  const { activity, loading, error, refresh } = useKeyActivity({ limit: 5 })
  if (!ready) return null
  return (
    <div>
      <p>{loading ? 'Loading' : 'Idle'}</p>
      {error && <p role="alert">{error.code}</p>}
      <ul>
        {activity.map((r) => (
          <li key={r.id}>
            {r.kind} {r.ip} {r.createdAt.toISOString()}
          </li>
        ))}
      </ul>
      <button type="button" onClick={() => void refresh()}>
        Refresh
      </button>
      <button type="button" onClick={() => void logout()}>
        Log out
      </button>
    </div>
  )
}

const renderLoggedIn = () => {
  localStorage.setItem('latchkey:token', accessToken(Math.floor(Date.now() / 1000) + 3600))
  return render(
    <LatchkeyProvider appId={APP_ID} apiUrl={API_URL}>
      <Activity />
    </LatchkeyProvider>,
  )
}

describe('useKeyActivity', () => {
  it('lists the logged-in user’s key releases, newest first, as returned', async () => {
    renderLoggedIn()
    await screen.findByText('Idle')
    const items = screen.getAllByRole('listitem').map((li) => li.textContent)
    expect(items).toEqual([
      `recovery 203.0.113.2 ${new Date(1_900_000_002_000).toISOString()}`,
      `auth_share 203.0.113.1 ${new Date(1_900_000_001_000).toISOString()}`,
    ])
    expect(queries).toEqual(['?limit=5'])
  })

  it('refresh() fetches again; a failure is an error and keeps the last list', async () => {
    renderLoggedIn()
    await screen.findByText('recovery 203.0.113.2', { exact: false })
    rows = [release(3, 'auth_share'), ...rows]
    fireEvent.click(screen.getByRole('button', { name: 'Refresh' }))
    await screen.findByText('auth_share 203.0.113.3', { exact: false })
    expect(screen.getAllByRole('listitem')).toHaveLength(3)

    failNext = true
    fireEvent.click(screen.getByRole('button', { name: 'Refresh' }))
    expect((await screen.findByRole('alert')).textContent).toBe('TOO_MANY_REQUESTS')
    expect(screen.getAllByRole('listitem')).toHaveLength(3)
    expect(screen.getByText('Idle')).toBeTruthy()

    fireEvent.click(screen.getByRole('button', { name: 'Refresh' }))
    await act(async () => {})
    await screen.findByText('Idle')
    expect(screen.queryByRole('alert')).toBeNull()
  })

  it('logged out: an empty list, no request', async () => {
    render(
      <LatchkeyProvider appId={APP_ID} apiUrl={API_URL}>
        <Activity />
      </LatchkeyProvider>,
    )
    await screen.findByText('Idle')
    expect(screen.queryAllByRole('listitem')).toHaveLength(0)
    expect(queries).toEqual([])
  })

  it('logging out empties the list', async () => {
    renderLoggedIn()
    await screen.findByText('recovery 203.0.113.2', { exact: false })
    fireEvent.click(screen.getByRole('button', { name: 'Log out' }))
    await vi.waitFor(() => expect(screen.queryAllByRole('listitem')).toHaveLength(0))
    expect(queries).toEqual(['?limit=5'])
  })
})
