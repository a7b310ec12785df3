import { attachEnclave, LatchkeyError, oauthPendingKey } from '@latchkey/core'
import {
  MODAL_OPEN_DELAY_MS,
  POST_LOGIN_DELAY_MS,
  SUCCESS_CLOSE_DELAY_MS,
} from '@latchkey/protocol/constants'
import type { AppConfig } from '@latchkey/protocol/schemas'
import { act, cleanup, createEvent, fireEvent, render, screen } from '@testing-library/react'
import { useState } from 'react'
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest'
import { useLatchkeyInstance } from '../context.ts'
import { useLatchkey } from '../hooks/useLatchkey.ts'
import { useLogin } from '../hooks/useLogin.ts'
import { useWallets } from '../hooks/useWallets.ts'
import { LatchkeyProvider } from '../LatchkeyProvider.tsx'
import { API_URL, APP_ID, accessToken, createFakeServer, wireUser } from '../test/fake-server.ts'

// Spec 01 §4 "After any login success" and spec 02 §4 through the modal
// (issue 17, items 7 and 11): with nothing more to do the wallets are
// refreshed before the modal closes with success; a wallet creation that
// fails after a social login logs the user out and says so with Close;
// closing the post-login recovery choice reports 'User exited set recovery flow'.

const ETH0 = '0x1111111111111111111111111111111111111111'
const embedded = {
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
const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } })
const walletConfig = (overrides: Partial<AppConfig['embedded_wallet_config']>) => ({
  embedded_wallet_config: {
    create_on_login: { ethereum: 'off', solana: 'off' },
    require_user_owned_recovery_on_create: false,
    user_owned_recovery_options: [],
    mode: 'user-controlled-server-wallets-only',
    ...overrides,
  } as AppConfig['embedded_wallet_config'],
})

let paths: string[]
/** Answers a path before the fake server does (undefined: the fake server answers). */
let route: (path: string) => Response | Promise<Response> | undefined

beforeAll(async () => {
  await import('./chunk.ts')
  await import('../redirect-return.ts')
})
beforeEach(() => {
  localStorage.clear()
  sessionStorage.clear()
  vi.useFakeTimers()
  paths = []
  route = () => undefined
})
afterEach(() => {
  cleanup()
  vi.useRealTimers()
  vi.unstubAllGlobals()
  history.replaceState(null, '', '/')
})

/** Lets the fake server answer and React commit, then `ms` of fake time pass. */
const elapse = (ms = 0) => act(() => vi.advanceTimersByTimeAsync(ms))

function Host(props: { onComplete(result: unknown): void; onError(code: string): void }) {
  const { ready, authenticated } = useLatchkey()
  const { login } = useLogin(props)
  const { wallets } = useWallets()
  if (!ready) return null
  return authenticated ? (
    <p>Wallets: {wallets.length}</p>
  ) : (
    <button type="button" onClick={() => login()}>
      Log in
    </button>
  )
}

/** The provider's client talks to this enclave (the provider frames none over plain HTTP). */
function Enclave({ answer }: { answer: (event: string) => unknown }) {
  const instance = useLatchkeyInstance()
  useState(() =>
    attachEnclave(instance.client, {
      origin: API_URL,
      request: (async (event: string) => answer(event)) as never,
      keyThumbprint: async () => null,
      destroy() {},
    }),
  )
  return null
}

function renderApp(
  config: Partial<AppConfig> = {},
  enclave: (event: string) => unknown = () => ({}),
) {
  const server = createFakeServer({ config })
  vi.stubGlobal('fetch', async (input: RequestInfo | URL, init?: RequestInit) => {
    const path = new URL(String(input)).pathname
    paths.push(path)
    return (await route(path)) ?? server.fetch(input, init)
  })
  const onComplete = vi.fn()
  const onError = vi.fn()
  render(
    <LatchkeyProvider appId={APP_ID} apiUrl={API_URL}>
      <Enclave answer={enclave} />
      <Host onComplete={onComplete} onError={onError} />
    </LatchkeyProvider>,
  )
  return { onComplete, onError }
}

async function logInWithEmail() {
  await elapse()
  fireEvent.click(screen.getByRole('button', { name: 'Log in' }))
  await elapse(MODAL_OPEN_DELAY_MS)
  fireEvent.change(screen.getByRole('textbox', { name: 'Email address' }), {
    target: { value: 'alice@example.com' },
  })
  fireEvent.click(screen.getByRole('button', { name: 'Submit' }))
  await elapse()
  const first = screen.getAllByRole('textbox', { name: /Digit \d of 6/ })[0] as HTMLInputElement
  fireEvent(first, createEvent.paste(first, { clipboardData: { getData: () => '123456' } }))
  await elapse()
}

describe('spec 01 §4: with nothing more to do, wallets are refreshed before the close', () => {
  it('the modal closes with success only once the wallet list is the server’s', async () => {
    let release: () => void = () => {}
    const refreshed = new Promise<void>((resolve) => {
      release = resolve
    })
    route = (path) =>
      path === '/api/v1/users/me'
        ? refreshed.then(() =>
            json(200, {
              user: {
                ...wireUser('alice@example.com', 1),
                linked_accounts: [...wireUser('alice@example.com', 1).linked_accounts, embedded],
              },
              identity_token: null,
            }),
          )
        : undefined
    const { onComplete } = renderApp()
    await logInWithEmail()
    expect(paths).toContain('/api/v1/users/me')
    await elapse(SUCCESS_CLOSE_DELAY_MS)
    // 1.4 s have passed, but the refresh is not in: the modal waits for it.
    expect(onComplete).not.toHaveBeenCalled()
    expect(screen.getByRole('dialog')).toBeTruthy()
    release()
    await elapse()
    expect(onComplete).toHaveBeenCalledOnce()
    expect(onComplete).toHaveBeenCalledWith(
      expect.objectContaining({
        user: expect.objectContaining({ wallet: expect.objectContaining({ address: ETH0 }) }),
      }),
    )
    expect(screen.getByText('Wallets: 1')).toBeTruthy()
  })

  it('a failed refresh still closes with success, with the login’s wallets', async () => {
    // A 404 is not retried (spec 01 §7): the refresh fails at once.
    route = (path) => (path === '/api/v1/users/me' ? json(404, { code: 'NOT_FOUND' }) : undefined)
    const { onComplete } = renderApp()
    await logInWithEmail()
    await elapse(SUCCESS_CLOSE_DELAY_MS)
    expect(onComplete).toHaveBeenCalledOnce()
  })
})

describe('spec 01 §4 / spec 02 §4: wallet creation after login', () => {
  const STATE = `google.${'s'.repeat(43)}`

  it('after OAuth, a failed creation logs the user out; the screen shows the message and Close', async () => {
    sessionStorage.setItem(
      oauthPendingKey(APP_ID),
      JSON.stringify({
        provider: 'google',
        intent: 'login',
        disableSignup: false,
        stateCode: STATE,
        codeVerifier: 'v'.repeat(64),
        createdAt: Date.now(),
        ui: 'modal',
      }),
    )
    history.replaceState(null, '', `/?code=abc&state=${STATE}`)
    route = (path) => {
      if (path !== '/api/v1/oauth/authenticate') return undefined
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
    const { onComplete, onError } = renderApp(
      walletConfig({ create_on_login: { ethereum: 'all-users', solana: 'off' } }),
      () => {
        throw new LatchkeyError('WALLET_PROXY_DISCONNECTED')
      },
    )
    await elapse()
    screen.getByRole('heading', { name: 'Successfully connected with Google' })
    // Spec 01 §4: after OAuth, the sequence starts 1.4 s after success.
    await elapse(SUCCESS_CLOSE_DELAY_MS)
    screen.getByRole('heading', { name: 'Cannot connect to wallet proxy' })
    expect(paths).toContain('/api/v1/sessions/logout')
    expect(onError).toHaveBeenCalledWith('WALLET_PROXY_DISCONNECTED')
    expect(onComplete).not.toHaveBeenCalled()
    expect(screen.queryByRole('button', { name: /Retry|Go back/ })).toBeNull()
    fireEvent.click(screen.getAllByRole('button', { name: 'Close' }).at(-1) as HTMLElement)
    await elapse()
    expect(screen.getByRole('button', { name: 'Log in' })).toBeTruthy()
  })

  it("closing the required recovery choice reports 'User exited set recovery flow'", async () => {
    const { onComplete, onError } = renderApp(
      walletConfig({
        create_on_login: { ethereum: 'all-users', solana: 'off' },
        require_user_owned_recovery_on_create: true,
        user_owned_recovery_options: ['user-passcode'],
        mode: 'legacy-embedded-wallets-only',
      }),
    )
    await logInWithEmail()
    await elapse(POST_LOGIN_DELAY_MS)
    screen.getByRole('heading', { name: 'Secure Your Account' })
    fireEvent.click(screen.getByRole('button', { name: 'Close' }))
    await elapse()
    expect(onError).toHaveBeenCalledWith('SET_RECOVERY_EXITED')
    expect(onError).toHaveBeenCalledOnce()
    expect(onComplete).not.toHaveBeenCalled()
  })
})
