import {
  CODE_RESEND_COOLDOWN_MS,
  MODAL_OPEN_DELAY_MS,
  MODAL_RESET_DELAY_MS,
  SUCCESS_CLOSE_DELAY_MS,
} from '@latchkey/protocol/constants'
import { act, cleanup, createEvent, fireEvent, render, screen } from '@testing-library/react'
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest'
import { useLatchkey } from '../hooks/useLatchkey.ts'
import { LatchkeyProvider } from '../LatchkeyProvider.tsx'
import { API_URL, APP_ID, appConfig, createFakeServer } from '../test/fake-server.ts'

// Tracker issue 16, item 3: closing the modal or pressing Back on the code
// screen must not trap the user behind the resend cooldown. The same address
// goes back to its code screen while the code can be entered, 'Resend code'
// counts down the seconds left, and the server's 429 `retry_after` drives
// that countdown when the client did not send the code itself.

beforeAll(async () => {
  await import('./chunk.ts')
  await import('./methods/sms/PhoneForm.tsx')
})
beforeEach(() => {
  localStorage.clear()
  vi.useFakeTimers()
})
afterEach(() => {
  cleanup()
  vi.useRealTimers()
  vi.unstubAllGlobals()
})

function Host() {
  const { ready, authenticated, user, login, logout } = useLatchkey()
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

/** The app on a fake server that enforces the resend cooldown (30 s unless said). */
function renderApp(server = createFakeServer({ resendCooldownMs: CODE_RESEND_COOLDOWN_MS })) {
  vi.stubGlobal('fetch', server.fetch)
  const view = render(
    <LatchkeyProvider appId={APP_ID} apiUrl={API_URL}>
      <Host />
    </LatchkeyProvider>,
  )
  return { ...view, server }
}

const advance = (ms = 0) => act(() => vi.advanceTimersByTimeAsync(ms))
const sends = (server: ReturnType<typeof createFakeServer>) =>
  server.calls.filter((c) => c.path === '/api/v1/passwordless/init').length
const resendButton = () => screen.getByRole('button', { name: /^Resend code/ }) as HTMLButtonElement

async function openModal() {
  fireEvent.click(screen.getByRole('button', { name: 'Log in' }))
  await advance(MODAL_OPEN_DELAY_MS)
}

async function submitEmail(email: string) {
  const input = screen.getByRole('textbox', { name: 'Email address' })
  fireEvent.change(input, { target: { value: email } })
  fireEvent.click(screen.getByRole('button', { name: 'Submit' }))
  await advance()
}

async function pasteCode(code: string) {
  const first = screen.getByRole('textbox', { name: 'Digit 1 of 6' })
  fireEvent(first, createEvent.paste(first, { clipboardData: { getData: () => code } }))
  await advance()
}

describe('the same address within the code’s life', () => {
  it('after closing the modal: back on its code screen, counting down, and the code works', async () => {
    const { server } = renderApp()
    await advance()
    await openModal()
    await submitEmail('alice@example.com')
    screen.getByRole('heading', { name: 'Enter confirmation code' })
    expect(resendButton().textContent).toBe('Resend code in 30s')

    fireEvent.keyDown(screen.getByRole('dialog'), { key: 'Escape' })
    await advance(MODAL_RESET_DELAY_MS)
    expect(screen.queryByRole('dialog')).toBeNull()
    await advance(10_000 - MODAL_RESET_DELAY_MS)

    await openModal()
    await submitEmail('Alice@Example.com')
    screen.getByRole('heading', { name: 'Enter confirmation code' })
    expect(screen.getByText('alice@example.com')).toBeTruthy()
    expect(screen.queryByRole('alert')).toBeNull()
    // 10 s after the send (less the modal's open delay): 20 s and a bit are left.
    expect(resendButton().textContent).toBe('Resend code in 20s')
    expect(resendButton().disabled).toBe(true)
    expect(sends(server)).toBe(1)

    await pasteCode(server.code)
    screen.getByRole('heading', { name: 'Success!' })
    await advance(SUCCESS_CLOSE_DELAY_MS + MODAL_RESET_DELAY_MS)
    screen.getByText('Logged in as alice@example.com')
  })

  it('after Back: the same, and the countdown ends exactly at 30 s', async () => {
    const { server } = renderApp()
    await advance()
    await openModal()
    await submitEmail('bob@example.com')
    await advance(4_000)
    fireEvent.click(screen.getByRole('button', { name: 'Back' }))
    await advance()
    // The address is kept: Submit goes straight back.
    fireEvent.click(screen.getByRole('button', { name: 'Submit' }))
    await advance()
    expect(resendButton().textContent).toBe('Resend code in 26s')
    expect(sends(server)).toBe(1)
    await advance(CODE_RESEND_COOLDOWN_MS - 4_000 - 1)
    expect(resendButton().textContent).toBe('Resend code in 1s')
    expect(resendButton().disabled).toBe(true)
    await advance(1)
    expect(resendButton().textContent).toBe('Resend code')
    fireEvent.click(resendButton())
    await advance()
    screen.getByText('Code sent')
    expect(sends(server)).toBe(2)
  })

  it('another address sends its own code', async () => {
    const { server } = renderApp()
    await advance()
    await openModal()
    await submitEmail('carol@example.com')
    fireEvent.click(screen.getByRole('button', { name: 'Back' }))
    await advance()
    await submitEmail('dave@example.com')
    expect(sends(server)).toBe(2)
    expect(resendButton().textContent).toBe('Resend code in 30s')
  })
})

describe("the server's retry_after", () => {
  it('a code sent before a reload: the 429 leads to its code screen, counting down from retry_after', async () => {
    const server = createFakeServer({ resendCooldownMs: CODE_RESEND_COOLDOWN_MS })
    const first = renderApp(server)
    await advance()
    await openModal()
    await submitEmail('erin@example.com')
    first.unmount()
    await advance(7_000)

    // A new page: a new client, which never sent this code.
    renderApp(server)
    await advance()
    await openModal()
    await submitEmail('erin@example.com')
    expect(sends(server)).toBe(2)
    screen.getByRole('heading', { name: 'Enter confirmation code' })
    expect(screen.queryByRole('alert')).toBeNull()
    expect(resendButton().textContent).toBe('Resend code in 23s')
    await pasteCode(server.code)
    screen.getByRole('heading', { name: 'Success!' })
  })

  it('a resend the server refuses: the countdown from retry_after, not an error', async () => {
    // The server's cooldown is longer than the client's own count (another tab sent one, say).
    const server = createFakeServer({ resendCooldownMs: 45_000 })
    renderApp(server)
    await advance()
    await openModal()
    await submitEmail('frank@example.com')
    await advance(CODE_RESEND_COOLDOWN_MS)
    fireEvent.click(resendButton())
    await advance()
    expect(sends(server)).toBe(2)
    expect(screen.queryByRole('alert')).toBeNull()
    expect(resendButton().textContent).toBe('Resend code in 15s')
    await advance(15_000)
    expect(resendButton().disabled).toBe(false)
  })

  it('a code already used: the email input says so, counting down, then lets the user send', async () => {
    const { server } = renderApp()
    await advance()
    await openModal()
    await submitEmail('gina@example.com')
    await pasteCode(server.code)
    await advance(SUCCESS_CLOSE_DELAY_MS + MODAL_RESET_DELAY_MS)
    fireEvent.click(screen.getByRole('button', { name: 'Log out' }))
    await advance()

    await openModal()
    await submitEmail('gina@example.com')
    const elapsed = SUCCESS_CLOSE_DELAY_MS + MODAL_RESET_DELAY_MS + MODAL_OPEN_DELAY_MS
    const left = Math.ceil((CODE_RESEND_COOLDOWN_MS - elapsed) / 1000)
    expect(screen.getByRole('alert').textContent).toBe(
      `Too many requests. Please wait before trying again. Try again in ${left}s.`,
    )
    expect(screen.queryByRole('heading', { name: 'Enter confirmation code' })).toBeNull()
    // retry_after is whole seconds, rounded up: the form waits that long, to the millisecond.
    await advance(left * 1000 - 1)
    expect(screen.getByRole('alert').textContent).toMatch(/Try again in 1s\.$/)
    await advance(1)
    expect(screen.queryByRole('alert')).toBeNull()
    fireEvent.click(screen.getByRole('button', { name: 'Submit' }))
    await advance()
    screen.getByRole('heading', { name: 'Enter confirmation code' })
    expect(resendButton().textContent).toBe('Resend code in 30s')
  })
})

describe('a phone number', () => {
  /** The app with SMS on; the SMS routes keep a 30 s cooldown and refuse every code as used up. */
  function renderSmsApp() {
    const server = createFakeServer({
      config: { login_methods: { ...appConfig().login_methods, sms: true } },
    })
    const smsSends: number[] = []
    let lastSend = Number.NEGATIVE_INFINITY
    const answer = (status: number, body: unknown) =>
      new Response(JSON.stringify(body), {
        status,
        headers: { 'content-type': 'application/json' },
      })
    renderApp({
      ...server,
      fetch: (async (input: RequestInfo | URL, init?: RequestInit) => {
        const url = String(input)
        if (url.endsWith('/api/v1/passwordless_sms/authenticate'))
          return answer(429, { code: 'TOO_MANY_ATTEMPTS', message: 'Too many attempts.' })
        if (!url.endsWith('/api/v1/passwordless_sms/init')) return server.fetch(input, init)
        const waited = Date.now() - lastSend
        if (waited < CODE_RESEND_COOLDOWN_MS)
          return answer(429, {
            code: 'RESEND_COOLDOWN',
            message: 'Too many requests. Please wait before trying again.',
            retry_after: Math.ceil((CODE_RESEND_COOLDOWN_MS - waited) / 1000),
          })
        lastSend = Date.now()
        smsSends.push(lastSend)
        return answer(200, { success: true, channel: 'sms' })
      }) as typeof globalThis.fetch,
    })
    return { smsSends }
  }

  const sendToPhone = async () => {
    fireEvent.change(screen.getByRole('textbox', { name: 'Phone number' }), {
      target: { value: '4155552671' },
    })
    fireEvent.click(screen.getByRole('button', { name: 'Continue with SMS' }))
    await advance()
  }

  it('after Back: back on its code screen, counting down, with no new text message', async () => {
    const { smsSends } = renderSmsApp()
    await advance()
    await openModal()
    await sendToPhone()
    screen.getByRole('heading', { name: 'Enter confirmation code' })
    expect(resendButton().textContent).toBe('Resend code in 30s')
    await advance(9_000)
    fireEvent.click(screen.getByRole('button', { name: 'Back' }))
    await advance()
    await sendToPhone()
    screen.getByRole('heading', { name: 'Enter confirmation code' })
    expect(screen.getByText('+14155552671')).toBeTruthy()
    expect(resendButton().textContent).toBe('Resend code in 21s')
    expect(smsSends).toHaveLength(1)
  })

  it('a code used up: the phone input counts the wait down, then lets the user send', async () => {
    const { smsSends } = renderSmsApp()
    await advance()
    await openModal()
    await sendToPhone()
    await pasteCode('000000')
    expect(screen.getByRole('alert').textContent).toBe('Too many attempts.')
    await advance(5_000)
    fireEvent.click(screen.getByRole('button', { name: 'Back' }))
    await advance()
    await sendToPhone()
    expect(screen.getByRole('alert').textContent).toBe(
      'Too many requests. Please wait before trying again. Try again in 25s.',
    )
    await advance(25_000 - 1)
    expect(screen.getByRole('alert').textContent).toMatch(/Try again in 1s\.$/)
    await advance(1)
    expect(screen.queryByRole('alert')).toBeNull()
    fireEvent.click(screen.getByRole('button', { name: 'Continue with SMS' }))
    await advance()
    screen.getByRole('heading', { name: 'Enter confirmation code' })
    expect(smsSends).toHaveLength(2)
  })
})
