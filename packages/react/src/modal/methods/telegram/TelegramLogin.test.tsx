import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react'
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest'
import { useLatchkey } from '../../../hooks/useLatchkey.ts'
import { LatchkeyProvider } from '../../../LatchkeyProvider.tsx'
import { API_URL, APP_ID } from '../../../test/fake-server.ts'
import { REFUSED_TELEGRAM_HASH, stubIdentityServer } from '../../../test/identity-server.ts'

// Telegram in the modal: the button leaves for Telegram's login page; its
// return reopens the modal, which verifies the signed result.

// The code the provider loads lazily (the modal's chunk, the redirect return), loaded once
// up front: opening the dialog then waits on nothing but promises.
beforeAll(async () => {
  await import('../../chunk.ts')
  await import('../../../redirect-return.ts')
})
beforeEach(() => {
  localStorage.clear()
  sessionStorage.clear()
})
afterEach(() => {
  cleanup()
  vi.unstubAllGlobals()
  vi.restoreAllMocks()
  history.replaceState(null, '', '/')
})

function Host() {
  const { ready, authenticated, login } = useLatchkey()
  if (!ready) return null
  return authenticated ? (
    <p>Logged in</p>
  ) : (
    <button type="button" onClick={() => login()}>
      Log in
    </button>
  )
}

const renderHost = () =>
  render(
    <LatchkeyProvider appId={APP_ID} apiUrl={API_URL} config={{ loginMethods: ['telegram'] }}>
      <Host />
    </LatchkeyProvider>,
  )

async function leaveForTelegram() {
  const assign = vi.fn()
  vi.spyOn(window.location, 'assign').mockImplementation(assign)
  const view = renderHost()
  fireEvent.click(await screen.findByRole('button', { name: 'Log in' }))
  fireEvent.click(await screen.findByRole('button', { name: 'Continue with Telegram' }))
  await waitFor(() => expect(assign).toHaveBeenCalled())
  view.unmount()
  return new URL(assign.mock.calls[0]?.[0])
}

describe('Telegram login in the modal', () => {
  it("leaves for Telegram's login page, then verifies the return: success", async () => {
    const { calls } = stubIdentityServer()
    const url = await leaveForTelegram()
    expect(url.origin + url.pathname).toBe('https://oauth.telegram.org/auth')
    expect(url.searchParams.get('bot_id')).toBe('7000000001')

    history.replaceState(
      null,
      '',
      `/?id=42&first_name=Ada&auth_date=1700000000&hash=${'a'.repeat(64)}`,
    )
    renderHost()
    await screen.findByRole('heading', { name: 'Successfully connected with Telegram' })
    expect(location.search).toBe('')
    expect(calls.find((c) => c.path === '/api/v1/telegram/authenticate')?.body).toMatchObject({
      telegram_auth_result: { id: 42, first_name: 'Ada', hash: 'a'.repeat(64) },
      mode: 'login-or-sign-up',
    })
    await screen.findByText('Logged in')
  })

  it("inside a Mini App with seamless auth, sends the Mini App's initData without leaving", async () => {
    const { calls } = stubIdentityServer()
    const assign = vi.fn()
    vi.spyOn(window.location, 'assign').mockImplementation(assign)
    vi.stubGlobal('Telegram', { WebApp: { initData: 'user=%7B%22id%22%3A42%7D&hash=abc' } })
    renderHost()
    fireEvent.click(await screen.findByRole('button', { name: 'Log in' }))
    fireEvent.click(await screen.findByRole('button', { name: 'Continue with Telegram' }))
    await screen.findByRole('heading', { name: 'Successfully connected with Telegram' })
    expect(assign).not.toHaveBeenCalled()
    expect(calls.find((c) => c.path === '/api/v1/telegram/authenticate')?.body).toMatchObject({
      telegram_web_app_data: 'user=%7B%22id%22%3A42%7D&hash=abc',
    })
  })

  it('a result the server refuses reads "Authentication failed"', async () => {
    stubIdentityServer()
    await leaveForTelegram()
    history.replaceState(null, '', `/?id=42&auth_date=1700000000&hash=${REFUSED_TELEGRAM_HASH}`)
    renderHost()
    await screen.findByRole('heading', { name: 'Authentication failed' })
  })

  it('a page Telegram did not return to for the modal is left alone', async () => {
    stubIdentityServer()
    history.replaceState(null, '', `/?id=42&auth_date=1700000000&hash=${'a'.repeat(64)}`)
    renderHost()
    await screen.findByRole('button', { name: 'Log in' })
    expect(screen.queryByRole('dialog')).toBeNull()
    expect(location.search).toContain('hash=')
  })
})
