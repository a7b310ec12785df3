import { attachEnclave } from '@latchkey/core'
import {
  MODAL_OPEN_DELAY_MS,
  SUCCESS_CLOSE_DELAY_MS,
  WALLET_CREATED_CLOSE_DELAY_MS,
} from '@latchkey/protocol/constants'
import type { AppConfig } from '@latchkey/protocol/schemas'
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react'
import { useState } from 'react'
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest'
import { useLatchkeyInstance } from '../context.ts'
import { LatchkeyProvider } from '../LatchkeyProvider.tsx'
import { API_URL, APP_ID, accessToken, createFakeServer, wireUser } from '../test/fake-server.ts'
import { useCrossAppAccounts } from './useCrossAppAccounts.ts'

// `loginWithCrossAppAccount` goes through the login modal's flow (spec 03 §4
// "Cross-app auth": on success, terms after 1.4 s, else wallet creation, else
// close; spec 01 §4 "After any login success"), and its promise settles when
// the modal closes. Core's real cross-app login runs: the provider page's
// answer is a window message from the provider's origin, the server the
// fake one plus the cross-app routes, the enclave a stub.

const PROVIDER_ID = 'provideraaaaaaaaaaaaaaaaa'
const PROVIDER_ORIGIN = 'http://provider.test'
const ETH0 = '0x1111111111111111111111111111111111111111'
const PROVIDER_WALLET = '0x2222222222222222222222222222222222222222'

const json = (body: unknown) =>
  new Response(JSON.stringify(body), { headers: { 'content-type': 'application/json' } })
const crossAppAccount = {
  type: 'cross_app',
  subject: 'did:latchkey:provider-user',
  provider_app: { id: PROVIDER_ID },
  embedded_wallets: [{ address: PROVIDER_WALLET, chain_type: 'ethereum' }],
  smart_wallets: [],
  verified_at: 1,
  first_verified_at: 1,
  latest_verified_at: 1,
}
const embeddedWallet = {
  type: 'wallet',
  address: ETH0,
  chain_type: 'ethereum',
  wallet_index: 0,
  wallet_client_type: 'latchkey',
  connector_type: 'embedded',
  imported: false,
  delegated: false,
  recovery_method: 'latchkey',
  entropy_id: ETH0,
  verified_at: 1,
  first_verified_at: 1,
  latest_verified_at: 1,
}
/** The requester's user: a cross_app account; terms and an embedded wallet as asked. */
const userWire = (terms: boolean, wallet: boolean) => ({
  ...wireUser('unused@example.com', 1),
  linked_accounts: [crossAppAccount, ...(wallet ? [embeddedWallet] : [])],
  has_accepted_terms: terms,
})

const popup = {
  closed: false,
  close() {
    this.closed = true
  },
  location: { href: 'about:blank' },
}
let paths: string[]
let enclaveEvents: string[]

function setup(config: Partial<AppConfig> = {}, { refuseTrade = false } = {}) {
  popup.closed = false
  popup.location.href = 'about:blank'
  vi.stubGlobal('open', () => popup)
  const server = createFakeServer({ config })
  vi.stubGlobal('fetch', async (input: RequestInfo | URL, init?: RequestInit) => {
    const path = new URL(String(input)).pathname
    paths.push(path)
    if (path === `/api/v1/apps/${PROVIDER_ID}/cross-app/details`)
      return json({
        id: PROVIDER_ID,
        name: 'Provider',
        logo_url: null,
        custom_api_url: `${PROVIDER_ORIGIN}/wallet`,
        read_only: false,
      })
    const now = Math.floor(Date.now() / 1000)
    if (path === '/api/v1/cross-app/authenticate' && refuseTrade)
      return new Response(
        JSON.stringify({ code: 'CROSS_APP_CONNECT_FAILED', details: { reason: 'invalid_code' } }),
        { status: 400, headers: { 'content-type': 'application/json' } },
      )
    if (path === '/api/v1/cross-app/authenticate')
      return json({
        user: userWire(false, false),
        is_new_user: true,
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
    if (path === '/api/v1/users/me/accept_terms') return json(userWire(true, false))
    return server.fetch(input, init)
  })
  const resolved = vi.fn()
  const rejected = vi.fn()
  render(
    <LatchkeyProvider appId={APP_ID} apiUrl={API_URL}>
      <Enclave />
      <Host onResolved={resolved} onRejected={rejected} />
    </LatchkeyProvider>,
  )
  return { resolved, rejected }
}

function Host(props: { onResolved(result: unknown): void; onRejected(error: unknown): void }) {
  const { loginWithCrossAppAccount } = useCrossAppAccounts()
  return (
    <button
      type="button"
      onClick={() =>
        loginWithCrossAppAccount({ appId: PROVIDER_ID }).then(props.onResolved, props.onRejected)
      }
    >
      Log in with Provider
    </button>
  )
}

/** The enclave creates the requester's embedded wallet (post-login wallet creation). */
function Enclave() {
  const instance = useLatchkeyInstance()
  useState(() =>
    attachEnclave(instance.client, {
      origin: API_URL,
      request: (async (event: string) => {
        enclaveEvents.push(event)
        return { user: userWire(true, true) }
      }) as never,
      keyThumbprint: async () => null,
      destroy() {},
    }),
  )
  return null
}

const elapse = (ms = 0) => act(() => vi.advanceTimersByTimeAsync(ms))
const post = (data: unknown) =>
  act(() => {
    window.dispatchEvent(new MessageEvent('message', { data, origin: PROVIDER_ORIGIN }))
  })
const stateSent = () => new URL(popup.location.href).searchParams.get('state') as string

/** Clicks the host's button; waits until the popup points at the provider ('Connecting to Provider'). */
async function startLogin() {
  await elapse()
  fireEvent.click(screen.getByRole('button', { name: 'Log in with Provider' }))
  await elapse(MODAL_OPEN_DELAY_MS)
  // The PKCE challenge is WebCrypto, and the provider's name a fetch: both in
  // real time, not the fake clock. Yield until they are in (the test's
  // timeout is the ceiling), however slow the machine.
  const connecting = () =>
    popup.location.href !== 'about:blank' &&
    screen.queryByRole('heading', { name: 'Connecting to Provider' }) !== null
  while (!connecting()) {
    await act(() => new Promise<void>((resolve) => setImmediate(resolve)))
    await elapse()
  }
}

beforeAll(async () => {
  await import('../modal/chunk.ts')
})
beforeEach(() => {
  localStorage.clear()
  sessionStorage.clear()
  paths = []
  enclaveEvents = []
  vi.useFakeTimers({
    toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'Date'],
  })
})
afterEach(() => {
  cleanup()
  vi.useRealTimers()
  vi.unstubAllGlobals()
})

describe('loginWithCrossAppAccount goes through the login flow', () => {
  it('resolves with the user once terms were accepted and the wallet created', async () => {
    const { resolved, rejected } = setup({
      require_users_accept_terms: true,
      terms_and_conditions_url: 'https://app.example/terms',
      embedded_wallet_config: {
        create_on_login: { ethereum: 'all-users', solana: 'off' },
        require_user_owned_recovery_on_create: false,
        user_owned_recovery_options: [],
        mode: 'user-controlled-server-wallets-only',
      },
    })
    await startLogin()
    // No Back: the hook asked for this provider, not for the landing screen.
    expect(screen.queryByRole('button', { name: 'Back' })).toBeNull()
    await post({ type: 'latchkey:cross-app', result: 'code', code: 'c', state: stateSent() })
    await elapse()
    screen.getByRole('heading', { name: 'Successfully connected with Provider' })

    // Spec 03 §4: the terms screen 1.4 s after success.
    await elapse(SUCCESS_CLOSE_DELAY_MS)
    screen.getByRole('heading', { name: 'One last step' })
    expect(resolved).not.toHaveBeenCalled()
    fireEvent.click(screen.getByRole('button', { name: 'Accept' }))
    await elapse()
    expect(paths).toContain('/api/v1/users/me/accept_terms')

    // Then wallet creation; the modal closes after its greeting.
    screen.getByText('Welcome to Test App')
    expect(enclaveEvents).toContain('latchkey:wallets:create')
    expect(resolved).not.toHaveBeenCalled()
    await elapse(WALLET_CREATED_CLOSE_DELAY_MS)
    await elapse()
    expect(rejected).not.toHaveBeenCalled()
    expect(resolved).toHaveBeenCalledOnce()
    const result = resolved.mock.calls[0]?.[0]
    expect(result).toMatchObject({ isNewUser: true, loginMethod: 'cross_app' })
    expect(result.user.hasAcceptedTerms).toBe(true)
    expect(result.user.wallet?.address).toBe(ETH0)
    expect(result.user.linkedAccounts).toContainEqual(
      expect.objectContaining({ type: 'cross_app', providerApp: { id: PROVIDER_ID } }),
    )
  })

  it('rejects with ‘User canceled flow’ when the user closes the modal; the popup closes', async () => {
    const { resolved, rejected } = setup()
    await startLogin()
    fireEvent.click(screen.getByRole('button', { name: 'Close' }))
    await elapse()
    expect(resolved).not.toHaveBeenCalled()
    expect(rejected).toHaveBeenCalledOnce()
    expect(rejected.mock.calls[0]?.[0]).toMatchObject({
      code: 'CROSS_APP_CANCELED',
      message: expect.stringContaining('User canceled flow'),
    })
    expect(popup.closed).toBe(true)
    // The provider's answer after the close is not traded.
    expect(paths).not.toContain('/api/v1/cross-app/authenticate')
  })

  it('a state mismatch is shown with Retry; closing then rejects with the phishing message', async () => {
    const { resolved, rejected } = setup()
    await startLogin()
    await post({ type: 'latchkey:cross-app', result: 'code', code: 'c', state: 'forged' })
    await elapse()
    screen.getByRole('heading', { name: 'Authentication failed' })
    const message = 'Unexpected auth flow. This may be a phishing attempt.'
    expect(screen.getByText(message, { selector: '[role="alert"], p' })).toBeTruthy()
    screen.getByRole('button', { name: 'Retry' })
    expect(paths).not.toContain('/api/v1/cross-app/authenticate')
    // While Retry is offered, nothing has ended: no early rejection.
    await elapse(SUCCESS_CLOSE_DELAY_MS)
    expect(rejected).not.toHaveBeenCalled()

    fireEvent.click(screen.getByRole('button', { name: 'Close' }))
    await elapse()
    expect(resolved).not.toHaveBeenCalled()
    expect(rejected).toHaveBeenCalledOnce()
    const error = rejected.mock.calls[0]?.[0] as Error
    expect(error).toMatchObject({ code: 'CROSS_APP_STATE_MISMATCH' })
    expect(error.message).toContain(message)
  })

  it('a refused trade: Retry is offered, then the close rejects with the message naming the app', async () => {
    const { rejected } = setup({}, { refuseTrade: true })
    await startLogin()
    await post({ type: 'latchkey:cross-app', result: 'code', code: 'c', state: stateSent() })
    await elapse()
    const message = 'There was an issue connecting your Provider account. Please try again.'
    screen.getByRole('heading', { name: 'Authentication failed' })
    screen.getByRole('button', { name: 'Retry' })
    expect(rejected).not.toHaveBeenCalled()
    fireEvent.click(screen.getByRole('button', { name: 'Close' }))
    await elapse()
    const error = rejected.mock.calls[0]?.[0] as Error
    expect(error).toMatchObject({ code: 'CROSS_APP_CONNECT_FAILED', message })
  })
})
