import {
  API_RETRY_BASE_DELAY_MS,
  CODE_RESEND_COOLDOWN_MS,
  MODAL_OPEN_DELAY_MS,
  MODAL_RESET_DELAY_MS,
  SUCCESS_CLOSE_DELAY_MS,
  WRONG_CODE_CLEAR_DELAY_MS,
} from '@latchkey/protocol/constants'
import { act, cleanup, createEvent, fireEvent, screen } from '@testing-library/react'
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest'
import { useLatchkey } from '../hooks/useLatchkey.ts'
import { type UseLoginParameters, useLogin } from '../hooks/useLogin.ts'
import { appConfig } from '../test/fake-server.ts'
import { renderWithProvider } from '../test/render.tsx'

// The modal's lazy chunk, loaded once: opening the dialog then waits on nothing but promises.
beforeAll(() => import('./chunk.ts'))
beforeEach(() => localStorage.clear())
afterEach(() => {
  cleanup()
  vi.useRealTimers()
  vi.unstubAllGlobals()
})

function Host({ onComplete }: UseLoginParameters) {
  const { ready, authenticated, user, logout } = useLatchkey()
  const { login } = useLogin({ onComplete })
  if (!ready) return <p>Loading…</p>
  return authenticated ? (
    <div>
      <p>Logged in as {user?.email?.address}</p>
      <button type="button" onClick={() => void logout()}>
        Log out
      </button>
    </div>
  ) : (
    <button type="button" onClick={() => login()}>
      Log in
    </button>
  )
}

function NoSignup() {
  const { login } = useLatchkey()
  return (
    <button type="button" onClick={() => login({ disableSignup: true })}>
      Log in
    </button>
  )
}

const boxes = () => screen.getAllByRole('textbox', { name: /Digit \d of 6/ }) as HTMLInputElement[]
const pasteCode = (code: string) => {
  const first = boxes()[0] as HTMLInputElement
  fireEvent(first, createEvent.paste(first, { clipboardData: { getData: () => code } }))
}
/** Under fake timers: lets pending promises settle and React commit, then `ms` pass. */
const advance = (ms = 0) => act(() => vi.advanceTimersByTimeAsync(ms))
const code = () =>
  boxes()
    .map((b) => b.value)
    .join('')

describe('login modal', () => {
  it('logs in with an email code: send → wrong code → clear → right code → success → close', async () => {
    vi.useFakeTimers()
    const onComplete = vi.fn()
    const { server } = renderWithProvider(<Host onComplete={onComplete} />)
    await advance()
    const opener = screen.getByRole('button', { name: 'Log in' })
    opener.focus()
    fireEvent.click(opener)
    await advance(MODAL_OPEN_DELAY_MS)

    const dialog = screen.getByRole('dialog')
    expect(dialog.getAttribute('aria-modal')).toBe('true')
    const email = screen.getByRole('textbox', { name: 'Email address' })
    expect(dialog.getAttribute('aria-labelledby')).toBe(
      screen.getByRole('heading', { name: 'Log in or sign up' }).id,
    )
    fireEvent.change(email, { target: { value: 'alice@example.com' } })
    fireEvent.click(screen.getByRole('button', { name: 'Submit' }))
    await advance()

    screen.getByRole('heading', { name: 'Enter confirmation code' })
    expect(server.calls.find((c) => c.path === '/api/v1/passwordless/init')?.body).toEqual({
      email: 'alice@example.com',
    })
    expect(document.activeElement).toBe(boxes()[0])

    // A wrong code: the message shows at once, the boxes clear 1.4 s later.
    pasteCode('000000')
    await advance()
    expect(screen.getByRole('alert').textContent).toBe('Invalid or expired verification code')
    expect(code()).toBe('000000')
    await advance(WRONG_CODE_CLEAR_DELAY_MS - 1)
    expect(code()).toBe('000000')
    await advance(1)
    expect(code()).toBe('')
    expect(document.activeElement).toBe(boxes()[0])

    // The right code.
    pasteCode(server.code)
    await advance()
    screen.getByRole('heading', { name: 'Success!' })
    const authCalls = server.calls.filter((c) => c.path === '/api/v1/passwordless/authenticate')
    expect(authCalls.at(-1)?.body).toEqual({
      email: 'alice@example.com',
      code: server.code,
      mode: 'login-or-sign-up',
    })

    // Closes 1.4 s after success, then unmounts 500 ms later; focus returns to the opener's place.
    await advance(SUCCESS_CLOSE_DELAY_MS - 1)
    expect(onComplete).not.toHaveBeenCalled()
    await advance(1)
    expect(onComplete).toHaveBeenCalledWith(
      expect.objectContaining({
        isNewUser: true,
        wasAlreadyAuthenticated: false,
        loginMethod: 'email',
      }),
    )
    await advance(MODAL_RESET_DELAY_MS - 1)
    expect(screen.queryByRole('dialog')).not.toBeNull()
    await advance(1)
    expect(screen.queryByRole('dialog')).toBeNull()
    expect(screen.getByText('Logged in as alice@example.com')).toBeTruthy()
    expect(localStorage.getItem('latchkey:recent-login-method:testappaaaaaaaaaaaaaaaaaa')).toBe(
      'email',
    )
  })

  it('closes on Escape and returns focus to the opener', async () => {
    vi.useFakeTimers()
    renderWithProvider(<Host />)
    await advance()
    const opener = screen.getByRole('button', { name: 'Log in' })
    opener.focus()
    fireEvent.click(opener)
    await advance(MODAL_OPEN_DELAY_MS)
    screen.getByRole('textbox', { name: 'Email address' })
    fireEvent.keyDown(document, { key: 'Escape' })
    expect(document.activeElement).toBe(opener)
    await advance(MODAL_RESET_DELAY_MS)
    expect(screen.queryByRole('dialog')).toBeNull()
  })

  it('keeps Tab inside the dialog', async () => {
    renderWithProvider(<Host />)
    fireEvent.click(await screen.findByRole('button', { name: 'Log in' }))
    const close = await screen.findByRole('button', { name: 'Close' })
    const email = await screen.findByRole('textbox', { name: 'Email address' })
    fireEvent.change(email, { target: { value: 'a@b.co' } })
    screen.getByRole('button', { name: 'Submit' }).focus()
    fireEvent.keyDown(document, { key: 'Tab' })
    expect(document.activeElement).toBe(close)
    fireEvent.keyDown(document, { key: 'Tab', shiftKey: true })
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Submit' }))
  })

  it("shows the account-not-found screen, and 'Try logging in again' keeps sign-up disabled", async () => {
    const { server } = renderWithProvider(<NoSignup />)
    fireEvent.click(await screen.findByRole('button', { name: 'Log in' }))
    const send = async (address: string) => {
      fireEvent.change(await screen.findByRole('textbox', { name: 'Email address' }), {
        target: { value: address },
      })
      fireEvent.click(screen.getByRole('button', { name: 'Submit' }))
    }
    await send('nobody@example.com')
    await screen.findByRole('heading', { name: 'Account not found' })
    fireEvent.click(screen.getByRole('button', { name: 'Try logging in again' }))
    await send('nobody@example.com')
    await screen.findByRole('heading', { name: 'Account not found' })
    const inits = server.calls.filter((c) => c.path === '/api/v1/passwordless/init')
    expect(inits.map((c) => (c.body as { disableSignup?: boolean }).disableSignup)).toEqual([
      true,
      true,
    ])
  })

  it("resend counts down the 30 s cooldown, then shows 'Code sent' for 30 s, then the link returns", async () => {
    vi.useFakeTimers()
    const { server } = renderWithProvider(<Host />)
    await advance()
    fireEvent.click(screen.getByRole('button', { name: 'Log in' }))
    await advance(MODAL_OPEN_DELAY_MS)
    fireEvent.change(screen.getByRole('textbox', { name: 'Email address' }), {
      target: { value: 'alice@example.com' },
    })
    fireEvent.click(screen.getByRole('button', { name: 'Submit' }))
    await advance()
    // Issue 16, 3: the server would refuse another code for 30 s; the link says how long.
    const waiting = screen.getByRole('button', { name: 'Resend code in 30s' }) as HTMLButtonElement
    expect(waiting.disabled).toBe(true)
    await advance(CODE_RESEND_COOLDOWN_MS - 1)
    screen.getByRole('button', { name: 'Resend code in 1s' })
    await advance(1)
    fireEvent.click(screen.getByRole('button', { name: 'Resend code' }))
    await advance()
    screen.getByText('Code sent')
    expect(screen.queryByRole('button', { name: 'Resend code' })).toBeNull()
    expect(server.calls.filter((c) => c.path === '/api/v1/passwordless/init')).toHaveLength(2)
    await advance(CODE_RESEND_COOLDOWN_MS - 1)
    expect(screen.queryByRole('button', { name: 'Resend code' })).toBeNull()
    await advance(1)
    expect(screen.getByRole('button', { name: 'Resend code' })).toBeTruthy()
  })

  it('goes back to the landing screen with the address kept', async () => {
    renderWithProvider(<Host />)
    fireEvent.click(await screen.findByRole('button', { name: 'Log in' }))
    fireEvent.change(await screen.findByRole('textbox', { name: 'Email address' }), {
      target: { value: 'alice@example.com' },
    })
    fireEvent.click(screen.getByRole('button', { name: 'Submit' }))
    fireEvent.click(await screen.findByRole('button', { name: 'Back' }))
    const email = (await screen.findByRole('textbox', {
      name: 'Email address',
    })) as HTMLInputElement
    expect(email.value).toBe('alice@example.com')
  })

  it('shows the error screen with Retry when the app configuration cannot be fetched', async () => {
    vi.useFakeTimers()
    renderWithProvider(<Host />, { server: { configFailures: 4 } })
    await advance()
    fireEvent.click(screen.getByRole('button', { name: 'Log in' }))
    // The client retries a network failure 3 times (0.5 s, 1 s, 2 s) before giving up.
    const retries = API_RETRY_BASE_DELAY_MS * (1 + 2 + 4)
    await advance(retries - 1)
    expect(screen.queryByRole('heading', { name: 'Could not reach the server' })).toBeNull()
    await advance(1)
    screen.getByRole('heading', { name: 'Could not reach the server' })
    expect(screen.getByText('Check your connection and try again.')).toBeTruthy()
    fireEvent.click(screen.getByRole('button', { name: 'Retry' }))
    await advance()
    screen.getByRole('heading', { name: 'Log in or sign up' })
  })

  it('shows a configuration error when the server enables no login method the modal can draw', async () => {
    renderWithProvider(<Host />, {
      server: {
        config: { login_methods: { ...appConfig().login_methods, email: false, guest: true } },
      },
    })
    fireEvent.click(await screen.findByRole('button', { name: 'Log in' }))
    await screen.findByRole('heading', { name: 'You must enable at least one login method' })
  })

  it('shows a configuration error when the default chain is not in chains, or chains is empty', async () => {
    const chain = (id: number) => ({
      id,
      name: `Chain ${id}`,
      nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
      rpcUrls: { default: { http: [`https://rpc.${id}.test`] } },
    })
    const first = renderWithProvider(<Host />, {
      config: { chains: [chain(1)], defaultChain: chain(137) },
    })
    fireEvent.click(await screen.findByRole('button', { name: 'Log in' }))
    await screen.findByRole('heading', { name: 'Chain ID 137 is not supported by this app.' })
    first.unmount()
    renderWithProvider(<Host />, { config: { chains: [] } })
    fireEvent.click(await screen.findByRole('button', { name: 'Log in' }))
    await screen.findByRole('heading', {
      name: 'The chains list must be non-empty and include the default chain',
    })
  })
})
