import { oauthPendingKey } from '@latchkey/core'
import { MODAL_RESET_DELAY_MS, SUCCESS_CLOSE_DELAY_MS } from '@latchkey/protocol/constants'
import { act, cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react'
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest'
import type { LatchkeyConfig } from '../../../config.ts'
import { useLatchkey } from '../../../hooks/useLatchkey.ts'
import { useLogin } from '../../../hooks/useLogin.ts'
import { LatchkeyProvider } from '../../../LatchkeyProvider.tsx'
import {
  API_URL,
  APP_ID,
  accessToken,
  createFakeServer,
  wireUser,
} from '../../../test/fake-server.ts'

// The modal's side of social login: the landing button leaves for the
// provider; the provider's return reopens the modal, which finishes it.

interface Call {
  path: string
  body: Record<string, unknown> | undefined
}
let calls: Call[]
let authenticate: () => Response

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } })
const loggedIn = () => {
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

// The code the provider loads lazily (the modal's chunk, the redirect return), loaded once
// up front: opening the dialog then waits on nothing but promises.
beforeAll(async () => {
  await import('../../chunk.ts')
  await import('../../../redirect-return.ts')
})
beforeEach(() => {
  localStorage.clear()
  sessionStorage.clear()
  calls = []
  authenticate = loggedIn
  const base = createFakeServer()
  vi.stubGlobal('fetch', async (input: RequestInfo | URL, init?: RequestInit) => {
    const path = new URL(String(input)).pathname
    const body = typeof init?.body === 'string' ? JSON.parse(init.body) : undefined
    calls.push({ path, body })
    if (path === '/api/v1/oauth/init') return json(200, { url: 'https://accounts.example/auth' })
    if (path === '/api/v1/oauth/authenticate') return authenticate()
    return base.fetch(input, init)
  })
})
afterEach(() => {
  cleanup()
  vi.unstubAllGlobals()
  vi.restoreAllMocks()
  vi.useRealTimers()
  history.replaceState(null, '', '/')
})

/** Under fake timers: lets pending promises settle and React commit, then `ms` pass. */
const elapse = (ms = 0) => act(() => vi.advanceTimersByTimeAsync(ms))

const CONFIG: LatchkeyConfig = { loginMethods: ['email', 'google', 'github'] }

function Host({ onComplete }: { onComplete?: () => void }) {
  const { ready, authenticated } = useLatchkey()
  const { login } = useLogin({ onComplete })
  if (!ready) return null
  return authenticated ? (
    <p>Logged in</p>
  ) : (
    <button type="button" onClick={() => login()}>
      Log in
    </button>
  )
}

const renderHost = (onComplete?: () => void) =>
  render(
    <LatchkeyProvider appId={APP_ID} apiUrl={API_URL} config={CONFIG}>
      <Host onComplete={onComplete} />
    </LatchkeyProvider>,
  )

// Spec 01 §2: the state names the provider, so the return carries code, state and provider.
const STATE = `google.${'s'.repeat(43)}`
function pendingFromModal(ui: 'modal' | 'app' = 'modal') {
  sessionStorage.setItem(
    oauthPendingKey(APP_ID),
    JSON.stringify({
      provider: 'google',
      intent: 'login',
      disableSignup: false,
      stateCode: STATE,
      codeVerifier: 'v'.repeat(64),
      createdAt: Date.now(),
      ui,
    }),
  )
}

describe('social login in the modal', () => {
  it('the landing button leaves for the provider, remembering that the modal asked', async () => {
    const assign = vi.fn()
    vi.spyOn(window.location, 'assign').mockImplementation(assign)
    renderHost()
    fireEvent.click(await screen.findByRole('button', { name: 'Log in' }))
    const google = await screen.findByRole('button', { name: 'Continue with Google' })
    fireEvent.click(google)
    await waitFor(() => expect(assign).toHaveBeenCalledWith('https://accounts.example/auth'))
    // Spec 01 §2: disabled for 2 s after a click.
    expect((google as HTMLButtonElement).disabled).toBe(true)
    expect(calls.find((c) => c.path === '/api/v1/oauth/init')?.body).toMatchObject({
      provider: 'google',
      intent: 'login',
    })
    expect(JSON.parse(sessionStorage.getItem(oauthPendingKey(APP_ID)) ?? '{}').ui).toBe('modal')
  })

  it('in an in-app browser, shows the notice instead of leaving for the provider', async () => {
    const assign = vi.fn()
    vi.spyOn(window.location, 'assign').mockImplementation(assign)
    vi.spyOn(navigator, 'userAgent', 'get').mockReturnValue(
      'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 Instagram 300.0',
    )
    renderHost()
    fireEvent.click(await screen.findByRole('button', { name: 'Log in' }))
    fireEvent.click(await screen.findByRole('button', { name: 'Continue with Google' }))
    await screen.findByRole('heading', { name: 'Could not log in with provider' })
    expect(screen.getByText(/try again using an external browser/)).toBeTruthy()
    expect(assign).not.toHaveBeenCalled()
    expect(calls.some((c) => c.path === '/api/v1/oauth/init')).toBe(false)
  })

  it("the return opens the modal: 'Verifying connection' → 'Successfully connected' → closes", async () => {
    vi.useFakeTimers()
    pendingFromModal()
    history.replaceState(null, '', `/?code=abc&state=${STATE}&keep=1`)
    let release: () => void = () => {}
    authenticate = () => {
      const gate = new Promise<void>((resolve) => {
        release = resolve
      })
      return gate.then(loggedIn) as unknown as Response
    }
    const onComplete = vi.fn()
    renderHost(onComplete)

    await elapse()
    screen.getByRole('heading', { name: 'Verifying connection to Google' })
    expect(location.search).toBe('?keep=1')
    release()
    await elapse()
    screen.getByRole('heading', { name: 'Successfully connected with Google' })
    await elapse(SUCCESS_CLOSE_DELAY_MS - 1)
    expect(onComplete).not.toHaveBeenCalled()
    await elapse(1)
    expect(onComplete).toHaveBeenCalledWith(
      expect.objectContaining({ loginMethod: 'google', isNewUser: true }),
    )
    await elapse(MODAL_RESET_DELAY_MS)
    expect(screen.queryByRole('dialog')).toBeNull()
    expect(screen.getByText('Logged in')).toBeTruthy()
  })

  it('a foreign state is the phishing warning, with no Retry and no server call', async () => {
    pendingFromModal()
    history.replaceState(null, '', `/?code=abc&state=google.${'x'.repeat(43)}`)
    renderHost()
    await screen.findByRole('heading', { name: 'Authentication failed' })
    expect(screen.getByText('Unexpected auth flow. This may be a phishing attempt.')).toBeTruthy()
    expect(screen.queryByRole('button', { name: 'Retry' })).toBeNull()
    expect(calls.some((c) => c.path === '/api/v1/oauth/authenticate')).toBe(false)
  })

  it('a denial offers Retry, which leaves for the provider again', async () => {
    const assign = vi.fn()
    vi.spyOn(window.location, 'assign').mockImplementation(assign)
    pendingFromModal()
    history.replaceState(null, '', `/?error=access_denied&state=${STATE}`)
    renderHost()
    await screen.findByRole('heading', { name: 'Authentication failed' })
    expect(screen.getByText('User denied confirmation during OAuth flow')).toBeTruthy()
    expect(location.search).toBe('')
    fireEvent.click(screen.getByRole('button', { name: 'Retry' }))
    await waitFor(() => expect(assign).toHaveBeenCalledWith('https://accounts.example/auth'))
  })

  it("a link beyond one per provider shows the server's message", async () => {
    pendingFromModal()
    history.replaceState(null, '', `/?code=abc&state=${STATE}`)
    authenticate = () =>
      json(400, {
        code: 'CANNOT_LINK_MORE_OF_TYPE',
        message: 'You cannot authorize more than one account for this user.',
      })
    renderHost()
    await screen.findByText('You cannot authorize more than one account for this user.')
  })

  it("leaves a return started by the app's own UI to the app", async () => {
    pendingFromModal('app')
    history.replaceState(null, '', `/?code=abc&state=${STATE}`)
    renderHost()
    await screen.findByRole('button', { name: 'Log in' })
    expect(screen.queryByRole('dialog')).toBeNull()
    expect(location.search).toBe(`?code=abc&state=${STATE}`)
  })

  it('a return this tab has no pending login for (another tab) opens the modal on a clear error', async () => {
    const assign = vi.fn()
    vi.spyOn(window.location, 'assign').mockImplementation(assign)
    history.replaceState(null, '', `/?code=abc&state=${STATE}&keep=1`)
    renderHost()
    await screen.findByRole('heading', { name: 'Authentication failed' })
    expect(
      screen.getByText(
        'This login has expired. Start it again: a social login must finish in the tab it began in, within 15 minutes.',
      ),
    ).toBeTruthy()
    // All three parameters leave the address bar; nothing is exchanged.
    expect(location.search).toBe('?keep=1')
    expect(calls.some((c) => c.path === '/api/v1/oauth/authenticate')).toBe(false)
    // Retry starts a fresh login with the provider the URL named.
    fireEvent.click(screen.getByRole('button', { name: 'Retry' }))
    await waitFor(() => expect(assign).toHaveBeenCalledWith('https://accounts.example/auth'))
    expect(calls.find((c) => c.path === '/api/v1/oauth/init')?.body).toMatchObject({
      provider: 'google',
    })
  })

  it('a permission left unchecked: retry and check the box (retryable)', async () => {
    pendingFromModal()
    history.replaceState(null, '', `/?code=abc&state=${STATE}`)
    authenticate = () => json(400, { code: 'OAUTH_SCOPE_DENIED', message: 'scope' })
    renderHost()
    await screen.findByText(
      'A permission was not granted. Retry and check the box next to each permission.',
    )
    expect(screen.getByRole('button', { name: 'Retry' })).toBeTruthy()
  })

  it("a suspended account: 'account suspended, try another method', no Retry", async () => {
    pendingFromModal()
    history.replaceState(null, '', `/?code=abc&state=${STATE}`)
    authenticate = () => json(403, { code: 'OAUTH_ACCOUNT_SUSPENDED', message: 'suspended' })
    renderHost()
    await screen.findByText('account suspended, try another method')
    expect(screen.queryByRole('button', { name: 'Retry' })).toBeNull()
  })
})
