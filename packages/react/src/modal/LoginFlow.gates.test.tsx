import {
  MODAL_OPEN_DELAY_MS,
  MODAL_RESET_DELAY_MS,
  POST_LOGIN_DELAY_MS,
  SUCCESS_CLOSE_DELAY_MS,
  TRANSFER_SUCCESS_CLOSE_DELAY_MS,
} from '@latchkey/protocol/constants'
import { act, cleanup, createEvent, fireEvent, screen } from '@testing-library/react'
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest'
import { useLatchkey } from '../hooks/useLatchkey.ts'
import { useLinkAccount } from '../hooks/useLinkAccount.ts'
import { type UseLoginParameters, useLogin } from '../hooks/useLogin.ts'
import { type RecordedCall, wireUser } from '../test/fake-server.ts'
import { renderWithProvider } from '../test/render.tsx'

// Spec 02 "Terms consent", "Allowlist and limit screens", "Account transfer"
// and §8 "Login-outcome screens", through the modal against a fake server.

// The modal's lazy chunks, loaded once up front: React.lazy then resolves
// them from the module cache, with nothing left to wait for but promises.
beforeAll(async () => {
  await import('./chunk.ts')
  await import('./screens/AccountTransferScreen.tsx')
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

/** Lets the fake server answer and React commit, then `ms` of fake time pass. */
const elapse = (ms = 0) => act(() => vi.advanceTimersByTimeAsync(ms))

function Host(callbacks: UseLoginParameters) {
  const { ready, authenticated, user } = useLatchkey()
  const { login } = useLogin(callbacks)
  const { linkEmail } = useLinkAccount()
  if (!ready) return <p>Loading…</p>
  return authenticated ? (
    <div>
      <p>Logged in as {user?.email?.address}</p>
      <p>Terms {user?.hasAcceptedTerms ? 'accepted' : 'not accepted'}</p>
      <button type="button" onClick={linkEmail}>
        Link email
      </button>
    </div>
  ) : (
    <button type="button" onClick={() => login()}>
      Log in
    </button>
  )
}

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } })

type Route = (call: RecordedCall) => Response | undefined

/** The fake server, with some routes answered by `route` instead. */
function render(options: Parameters<typeof renderWithProvider>[1] & { route?: Route } = {}) {
  const onComplete = vi.fn()
  const onError = vi.fn()
  const rendered = renderWithProvider(<Host onComplete={onComplete} onError={onError} />, options)
  const calls: RecordedCall[] = []
  vi.stubGlobal('fetch', async (input: RequestInfo | URL, init?: RequestInit) => {
    const path = new URL(String(input)).pathname
    const body = typeof init?.body === 'string' ? JSON.parse(init.body) : undefined
    const headers = Object.fromEntries(new Headers(init?.headers).entries())
    const call = { method: init?.method ?? 'GET', path, headers, body }
    calls.push(call)
    return options.route?.(call) ?? rendered.server.fetch(input, init)
  })
  return { ...rendered, calls, onComplete, onError }
}

const pasteCode = (code: string) => {
  const first = screen.getAllByRole('textbox', { name: /Digit \d of 6/ })[0] as HTMLInputElement
  fireEvent(first, createEvent.paste(first, { clipboardData: { getData: () => code } }))
}

async function submitEmail(address: string) {
  const input = screen.getByRole('textbox', { name: 'Email address' })
  fireEvent.change(input, { target: { value: address } })
  fireEvent.click(screen.getByRole('button', { name: 'Submit' }))
  await elapse()
  screen.getByRole('heading', { name: 'Enter confirmation code' })
  pasteCode('123456')
  await elapse()
}

async function logIn(address = 'alice@example.com') {
  await elapse()
  fireEvent.click(screen.getByRole('button', { name: 'Log in' }))
  await elapse(MODAL_OPEN_DELAY_MS)
  await submitEmail(address)
}

const refuse =
  (path: string, code: string, details?: unknown): Route =>
  (call) =>
    call.path === path ? json(403, { code, message: code, details }) : undefined

describe('terms consent (spec 02)', () => {
  const legal = {
    require_users_accept_terms: true,
    terms_and_conditions_url: 'https://app.example/terms',
    privacy_policy_url: 'https://app.example/privacy',
  }
  const acceptTerms: Route = (call) => {
    if (call.path !== '/api/v1/users/me/accept_terms') return undefined
    const now = Math.floor(Date.now() / 1000)
    return json(200, { ...wireUser('alice@example.com', now), has_accepted_terms: true })
  }
  const termsHeading = () => screen.queryByRole('heading', { name: 'One last step' })

  it("'One last step' after login; Accept records it and closes with success", async () => {
    const { calls, onComplete } = render({ server: { config: legal }, route: acceptTerms })
    await logIn()
    // Spec 01 §4: an email login's post-login sequence starts 900 ms after success.
    await elapse(POST_LOGIN_DELAY_MS - 1)
    expect(termsHeading()).toBeNull()
    await elapse(1)
    expect(termsHeading()).not.toBeNull()
    const terms = screen.getByRole('link', { name: 'View Terms' })
    expect(terms.getAttribute('href')).toBe('https://app.example/terms')
    expect(terms.getAttribute('target')).toBe('_blank')
    expect(screen.getByRole('link', { name: 'View Privacy Policy' }).getAttribute('href')).toBe(
      'https://app.example/privacy',
    )

    fireEvent.click(screen.getByRole('button', { name: 'Accept' }))
    await elapse()
    expect(onComplete).toHaveBeenCalledTimes(1)
    expect(onComplete.mock.calls[0]?.[0]).toMatchObject({ loginMethod: 'email', isNewUser: true })
    expect(onComplete.mock.calls[0]?.[0].user.hasAcceptedTerms).toBe(true)
    expect(calls.find((c) => c.path === '/api/v1/users/me/accept_terms')).toMatchObject({
      method: 'POST',
      body: {},
    })
    screen.getByText('Terms accepted')
    await elapse(MODAL_RESET_DELAY_MS)
    expect(screen.queryByRole('dialog')).toBeNull()
  })

  it("'No thanks' logs the user out; login reports TERMS_DECLINED", async () => {
    const { calls, onComplete, onError } = render({ server: { config: legal } })
    await logIn()
    await elapse(POST_LOGIN_DELAY_MS)
    fireEvent.click(screen.getByRole('button', { name: 'No thanks' }))
    await elapse()
    screen.getByRole('button', { name: 'Log in' })
    expect(onError).toHaveBeenCalledWith('TERMS_DECLINED')
    expect(onComplete).not.toHaveBeenCalled()
    expect(calls.some((c) => c.path === '/api/v1/sessions/logout')).toBe(true)
    expect(calls.some((c) => c.path === '/api/v1/users/me/accept_terms')).toBe(false)
  })

  it('closing the dialog on the terms screen declines too', async () => {
    const { onError } = render({ server: { config: legal } })
    await logIn()
    await elapse(POST_LOGIN_DELAY_MS)
    fireEvent.click(screen.getByRole('button', { name: 'Close' }))
    await elapse()
    screen.getByRole('button', { name: 'Log in' })
    expect(onError).toHaveBeenCalledWith('TERMS_DECLINED')
  })

  it('a user who accepted before is not asked again', async () => {
    const accepted: Route = (call) => {
      if (call.path !== '/api/v1/passwordless/authenticate') return undefined
      const now = Math.floor(Date.now() / 1000)
      return json(200, {
        user: { ...wireUser('alice@example.com', now), has_accepted_terms: true },
        is_new_user: false,
        token: `e30.${btoa(JSON.stringify({ sub: 'did:latchkey:user1', aud: 'testappaaaaaaaaaaaaaaaaaa', exp: now + 3600 }))}.sig`,
        refresh_token: 'r',
        identity_token: null,
        session_update_action: 'set',
      })
    }
    const { onComplete } = render({ server: { config: legal }, route: accepted })
    await logIn()
    // No post-login step: the modal closes 1.4 s after success.
    await elapse(SUCCESS_CLOSE_DELAY_MS - 1)
    expect(onComplete).not.toHaveBeenCalled()
    await elapse(1)
    expect(onComplete).toHaveBeenCalledTimes(1)
    expect(termsHeading()).toBeNull()
  })
})

describe('login-outcome screens (spec 02 §8)', () => {
  it("allowlist: 'You don't have access to this app'; 'Try another account' goes back", async () => {
    const { onError } = render({
      route: refuse('/api/v1/passwordless/authenticate', 'ALLOWLIST_REJECTED'),
    })
    await logIn('someone@elsewhere.example')
    screen.getByRole('heading', { name: "You don't have access to this app" })
    screen.getByText('Have you been invited?')
    expect(onError).toHaveBeenCalledWith('ALLOWLIST_REJECTED')
    fireEvent.click(screen.getByRole('button', { name: 'Try another account' }))
    await elapse()
    screen.getByRole('heading', { name: 'Log in or sign up' })
  })

  it("allowlist: the app's title, detail, button text and link", async () => {
    render({
      server: {
        config: {
          allowlist_config: {
            error_title: 'Private beta',
            error_detail: 'Join the waitlist to get in.',
            error_cta_text: 'Join the waitlist',
            error_cta_link: 'https://app.example/waitlist',
          },
        },
      },
      route: refuse('/api/v1/passwordless/authenticate', 'ALLOWLIST_REJECTED'),
    })
    await logIn('someone@elsewhere.example')
    screen.getByRole('heading', { name: 'Private beta' })
    screen.getByText('Join the waitlist to get in.')
    const cta = screen.getByRole('link', { name: 'Join the waitlist' })
    expect(cta.getAttribute('href')).toBe('https://app.example/waitlist')
  })

  it("user limit: 'Unable to sign in'; 'Go back' returns to the landing screen", async () => {
    render({ route: refuse('/api/v1/passwordless/authenticate', 'USER_LIMIT_REACHED') })
    await logIn('bob@example.com')
    screen.getByRole('heading', { name: 'Unable to sign in' })
    fireEvent.click(screen.getByRole('button', { name: 'Go back' }))
    await elapse()
    screen.getByRole('heading', { name: 'Log in or sign up' })
  })

  it.each([
    ['LOGIN_METHOD_NOT_ALLOWED', 'Not allowed', 'Try another method'],
    ['REGION_NOT_SUPPORTED', 'This region is not supported', null],
    ['TOO_MANY_REQUESTS', 'Too many requests. Please wait before trying again.', null],
  ])('%s on the code reads %j', async (code, title, detail) => {
    const { onError } = render({ route: refuse('/api/v1/passwordless/authenticate', code) })
    await logIn()
    screen.getByRole('heading', { name: title })
    if (detail) screen.getByText(detail)
    expect(onError).toHaveBeenCalledWith(code)
  })

  it('REGION_NOT_SUPPORTED when sending the code reads the error screen too', async () => {
    render({ route: refuse('/api/v1/passwordless/init', 'REGION_NOT_SUPPORTED') })
    await elapse()
    fireEvent.click(screen.getByRole('button', { name: 'Log in' }))
    await elapse(MODAL_OPEN_DELAY_MS)
    const input = screen.getByRole('textbox', { name: 'Email address' })
    fireEvent.change(input, { target: { value: 'alice@example.com' } })
    fireEvent.click(screen.getByRole('button', { name: 'Submit' }))
    await elapse()
    screen.getByRole('heading', { name: 'This region is not supported' })
  })
})

describe('account transfer (spec 02)', () => {
  const offer = (wallet: string | null) => ({
    nonce: 'nonce-1',
    account: { type: 'email', display_name: 'taken@example.com' },
    other_user: {
      embedded_wallet_address: wallet,
      embedded_wallet_chain_type: wallet ? 'ethereum' : null,
    },
  })
  const WALLET = '0x1234567890abcdef1234567890abcdef12345678'
  const transferServer =
    (wallet: string | null): Route =>
    (call) => {
      const now = Math.floor(Date.now() / 1000)
      if (call.path === '/api/v1/passwordless/link')
        return json(400, {
          code: 'ACCOUNT_TRANSFER_REQUIRED',
          message: 'transfer',
          details: offer(wallet),
        })
      if (call.path === '/api/v1/passwordless/transfer') {
        const user = wireUser('alice@example.com', now)
        return json(200, {
          ...user,
          linked_accounts: [
            ...user.linked_accounts,
            {
              type: 'email',
              address: 'taken@example.com',
              verified_at: now,
              first_verified_at: now,
              latest_verified_at: now,
            },
          ],
        })
      }
      return undefined
    }

  async function linkTaken() {
    await logIn()
    await elapse(SUCCESS_CLOSE_DELAY_MS + MODAL_RESET_DELAY_MS)
    expect(screen.queryByRole('dialog')).toBeNull()
    fireEvent.click(screen.getByRole('button', { name: 'Link email' }))
    await elapse(MODAL_OPEN_DELAY_MS)
    await submitEmail('taken@example.com')
  }

  it("transfers: Continue, check assets, 'Transfer and delete account' → 'Success!' → closes 1 s later", async () => {
    const { calls, onComplete, onError } = render({ route: transferServer(WALLET) })
    await linkTaken()
    screen.getByRole('heading', { name: 'Transfer account?' })
    screen.getByText(/taken@example.com is already the login method of another account/)

    fireEvent.click(screen.getByRole('button', { name: 'Continue' }))
    screen.getByRole('heading', { name: 'Check assets first' })
    screen.getByText(WALLET)
    expect(screen.getByRole('link', { name: 'View on explorer' }).getAttribute('href')).toBe(
      `https://etherscan.io/address/${WALLET}`,
    )
    fireEvent.click(screen.getByRole('button', { name: 'Continue' }))

    onComplete.mockClear()
    fireEvent.click(screen.getByRole('button', { name: 'Transfer and delete account' }))
    await elapse()
    screen.getByRole('button', { name: 'Success!' })
    expect(calls.find((c) => c.path === '/api/v1/passwordless/transfer')?.body).toEqual({
      email: 'taken@example.com',
      nonce: 'nonce-1',
      accountType: 'email',
    })
    await elapse(TRANSFER_SUCCESS_CLOSE_DELAY_MS - 1)
    expect(onComplete).not.toHaveBeenCalled()
    await elapse(1)
    expect(onComplete).toHaveBeenCalledTimes(1)
    expect(onComplete.mock.calls[0]?.[0]).toMatchObject({
      wasAlreadyAuthenticated: true,
      loginMethod: 'email',
    })
    expect(onError).not.toHaveBeenCalledWith('ACCOUNT_TRANSFER_REQUIRED')
  })

  it("'No thanks' closes without transferring", async () => {
    const { calls, onError } = render({ route: transferServer(null) })
    await linkTaken()
    screen.getByRole('heading', { name: 'Transfer account?' })
    // No embedded wallet on the other account: no Continue to an asset check.
    expect(screen.queryByRole('button', { name: 'Continue' })).toBeNull()
    fireEvent.click(screen.getByRole('button', { name: 'No thanks' }))
    await elapse(MODAL_RESET_DELAY_MS)
    expect(screen.queryByRole('dialog')).toBeNull()
    expect(calls.some((c) => c.path === '/api/v1/passwordless/transfer')).toBe(false)
    expect(onError).toHaveBeenCalledWith('ACCOUNT_TRANSFER_REQUIRED')
  })

  it('a refused transfer shows the reason and keeps the choice', async () => {
    const route: Route = (call) =>
      call.path === '/api/v1/passwordless/transfer'
        ? json(400, { code: 'TRANSFER_EXPIRED', message: 'expired' })
        : transferServer(null)(call)
    render({ route })
    await linkTaken()
    fireEvent.click(screen.getByRole('button', { name: 'Transfer and delete account' }))
    await elapse()
    expect(screen.getByRole('alert').textContent).toBe(
      'This transfer offer has expired. Link the account again to get a new offer.',
    )
    screen.getByRole('button', { name: 'No thanks' })
  })
})
