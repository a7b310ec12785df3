import { oauthPendingKey } from '@latchkey/core'
import {
  act,
  cleanup,
  createEvent,
  fireEvent,
  render,
  screen,
  waitFor,
} from '@testing-library/react'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { LatchkeyProvider } from '../LatchkeyProvider.tsx'
import { API_URL, APP_ID, accessToken, createFakeServer, wireUser } from '../test/fake-server.ts'
import { useLatchkey } from './useLatchkey.ts'
import { useLinkAccount } from './useLinkAccount.ts'

// Linking and updating from the app's own buttons: email/phone updates open
// the modal on the input (the code goes to the new value), social links leave
// for the provider with a link intent that the modal finishes on return.

interface Call {
  path: string
  body: Record<string, unknown> | undefined
}
let calls: Call[]
const PHONE = '+14155550100'

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } })

beforeEach(() => {
  localStorage.clear()
  sessionStorage.clear()
  calls = []
  const base = createFakeServer()
  vi.stubGlobal('fetch', async (input: RequestInfo | URL, init?: RequestInit) => {
    const path = new URL(String(input)).pathname
    const body = typeof init?.body === 'string' ? JSON.parse(init.body) : undefined
    calls.push({ path, body })
    if (path === '/api/v1/passwordless/update')
      return json(200, wireUser(String(body.newAddress), Math.floor(Date.now() / 1000)))
    if (path === '/api/v1/oauth/init') return json(200, { url: 'https://accounts.example/auth' })
    if (path === '/api/v1/users/me') {
      const now = Math.floor(Date.now() / 1000)
      const user = wireUser('alice@example.com', now)
      const phone = { type: 'phone', number: PHONE, verified_at: now }
      return json(200, {
        user: {
          ...user,
          linked_accounts: [
            ...user.linked_accounts,
            { ...phone, first_verified_at: now, latest_verified_at: now },
          ],
        },
        identity_token: null,
      })
    }
    if (path === '/api/v1/passwordless_sms/init')
      return json(200, { success: true, channel: 'sms' })
    return base.fetch(input, init)
  })
})
afterEach(() => {
  cleanup()
  vi.unstubAllGlobals()
  vi.restoreAllMocks()
})

function Account() {
  const { ready, user } = useLatchkey()
  const link = useLinkAccount()
  if (!ready) return null
  return (
    <div>
      <p>Email: {user?.email?.address ?? 'none'}</p>
      <button type="button" onClick={() => link.updateEmail(user?.email?.address ?? '')}>
        Change email
      </button>
      <button type="button" onClick={() => link.updatePhone()}>
        Change phone
      </button>
      <button type="button" onClick={() => void link.linkOAuth('github')}>
        Link GitHub
      </button>
    </div>
  )
}

const renderLoggedIn = () => {
  localStorage.setItem('latchkey:token', accessToken(Math.floor(Date.now() / 1000) + 3600))
  return render(
    <LatchkeyProvider appId={APP_ID} apiUrl={API_URL}>
      <Account />
    </LatchkeyProvider>,
  )
}

describe('useLinkAccount', () => {
  it('updateEmail: the modal asks for the new address and sends old, new and code', async () => {
    renderLoggedIn()
    await screen.findByText('Email: alice@example.com')
    fireEvent.click(screen.getByRole('button', { name: 'Change email' }))
    await screen.findByRole('heading', { name: 'Update your email' })
    fireEvent.change(screen.getByRole('textbox', { name: 'Email address' }), {
      target: { value: 'new@example.com' },
    })
    fireEvent.click(screen.getByRole('button', { name: 'Submit' }))
    const first = await screen.findByRole('textbox', { name: 'Digit 1 of 6' })
    fireEvent(first, createEvent.paste(first, { clipboardData: { getData: () => '123456' } }))

    await screen.findByText('Your account is updated.')
    expect(calls.find((c) => c.path === '/api/v1/passwordless/update')?.body).toEqual({
      oldAddress: 'alice@example.com',
      newAddress: 'new@example.com',
      code: '123456',
    })
    await screen.findByText('Email: new@example.com')
  })

  it("updatePhone: 'Update your phone number'; the user's number is the one replaced", async () => {
    await import('../modal/methods/sms/PhoneForm.tsx')
    renderLoggedIn()
    await screen.findByText('Email: alice@example.com')
    fireEvent.click(screen.getByRole('button', { name: 'Change phone' }))
    await screen.findByRole('heading', { name: 'Update your phone number' })
    fireEvent.change(await screen.findByRole('textbox', { name: 'Phone number' }), {
      target: { value: '4155550199' },
    })
    fireEvent.click(screen.getByRole('button', { name: 'Continue with SMS' }))
    const first = await screen.findByRole('textbox', { name: 'Digit 1 of 6' })
    fireEvent(first, createEvent.paste(first, { clipboardData: { getData: () => '123456' } }))
    await waitFor(() =>
      expect(calls.find((c) => c.path === '/api/v1/passwordless_sms/update')?.body).toEqual({
        old_phone_number: PHONE,
        new_phone_number: '+14155550199',
        code: '123456',
      }),
    )
  })

  it('linkOAuth leaves for the provider with a link intent the modal will finish', async () => {
    const assign = vi.fn()
    vi.spyOn(window.location, 'assign').mockImplementation(assign)
    renderLoggedIn()
    await screen.findByText('Email: alice@example.com')
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Link GitHub' })))
    await waitFor(() => expect(assign).toHaveBeenCalledWith('https://accounts.example/auth'))
    expect(calls.find((c) => c.path === '/api/v1/oauth/init')?.body).toMatchObject({
      provider: 'github',
      intent: 'link',
    })
    expect(JSON.parse(sessionStorage.getItem(oauthPendingKey(APP_ID)) ?? '{}')).toMatchObject({
      intent: 'link',
      ui: 'modal',
    })
  })
})
