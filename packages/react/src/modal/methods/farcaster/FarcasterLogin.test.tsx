import {
  type FarcasterSignature,
  type LatchkeyClient,
  LatchkeyError,
  linkFarcaster,
  loginWithFarcaster,
  type StartFarcasterLoginReturnType,
  startFarcasterLogin,
  type User,
  waitForFarcaster,
} from '@latchkey/core'
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react'
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest'
import { useLatchkey } from '../../../hooks/useLatchkey.ts'
import { LatchkeyProvider } from '../../../LatchkeyProvider.tsx'
import {
  API_URL,
  APP_ID,
  accessToken,
  createFakeServer,
  wireUser,
} from '../../../test/fake-server.ts'
import FarcasterLogin, { type FarcasterLoginProps } from './FarcasterLogin.tsx'

/** The codes of the errors an `onError` mock was called with. */
const errorCodes = (fn: { mock: { calls: unknown[][] } }) =>
  fn.mock.calls.map(([error]) => (error as { code: string }).code)

// Sign In With Farcaster in the modal (spec 01 §2 "Farcaster sign-in", §4
// "Farcaster"): a relay channel's QR code (a deep link on mobile), a wait
// for the Farcaster app, then login or link; a timeout offers Retry, which
// opens a new channel. Core's Farcaster calls are mocked; the last test
// runs them for real through the modal against a stubbed server.

vi.mock('@latchkey/core', async (importOriginal) => ({
  ...(await importOriginal<typeof import('@latchkey/core')>()),
  startFarcasterLogin: vi.fn(),
  waitForFarcaster: vi.fn(),
  loginWithFarcaster: vi.fn(),
  linkFarcaster: vi.fn(),
}))

const start = vi.mocked(startFarcasterLogin)
const wait = vi.mocked(waitForFarcaster)
const login = vi.mocked(loginWithFarcaster)
const link = vi.mocked(linkFarcaster)

const USER = { id: 'did:latchkey:user1' } as User
const CHANNEL: StartFarcasterLoginReturnType = {
  channelToken: 'channel-1',
  connectUri: 'https://farcaster.xyz/~/siwf?channelToken=channel-1',
  expiresAt: Date.now() + 600_000,
}
const PROOF: FarcasterSignature = {
  channelToken: 'channel-1',
  message: 'example.com wants you to sign in with your Ethereum account:\n0xabc',
  signature: '0xdeadbeef',
  fid: 1234,
  username: 'alice',
  displayName: 'Alice',
  bio: null,
  pfpUrl: null,
}

function deferred<T>() {
  let resolve!: (value: T) => void
  let reject!: (error: unknown) => void
  const promise = new Promise<T>((res, rej) => {
    resolve = res
    reject = rej
  })
  return { promise, resolve, reject }
}

const client = { appId: APP_ID } as unknown as LatchkeyClient
const flush = () => act(async () => {})
const heading = () => screen.getByRole('heading').textContent
const qr = () => screen.queryByRole('img', { name: 'Farcaster sign-in QR code' })
const abortError = () => new DOMException('The operation was aborted.', 'AbortError')

/** The signal the screen handed to the n-th waitForFarcaster. */
const signalOf = (n = 0) => wait.mock.calls[n]?.[2]?.signal as AbortSignal

function renderLogin(props: Partial<FarcasterLoginProps> = {}) {
  const callbacks = {
    onDone: vi.fn<FarcasterLoginProps['onDone']>(),
    onError: vi.fn<FarcasterLoginProps['onError']>(),
    onBack: vi.fn(),
  }
  const view = render(
    <FarcasterLogin
      client={client}
      intent="login"
      disableSignup={false}
      {...callbacks}
      {...props}
    />,
  )
  return { ...view, ...callbacks }
}

/** waitForFarcaster that never settles on its own and rejects like core when aborted. */
const waitUntilAborted = (_client: LatchkeyClient, _token: string, options = {}) =>
  new Promise<FarcasterSignature>((_, reject) => {
    const { signal } = options as { signal?: AbortSignal }
    signal?.addEventListener('abort', () => reject(abortError()), { once: true })
  })

beforeEach(() => {
  localStorage.clear()
  sessionStorage.clear()
  for (const mock of [start, wait, login, link]) mock.mockReset()
  start.mockResolvedValue(CHANNEL)
  wait.mockImplementation(waitUntilAborted)
  login.mockResolvedValue({ user: USER, isNewUser: true })
  link.mockResolvedValue(USER)
})
afterEach(() => {
  cleanup()
  vi.restoreAllMocks()
  vi.unstubAllGlobals()
})

describe('FarcasterLogin', () => {
  it('prepares the channel, then shows its connect URI as a QR code and an app link', async () => {
    const started = deferred<StartFarcasterLoginReturnType>()
    start.mockReturnValue(started.promise)
    renderLogin()
    expect(heading()).toBe('Sign in with Farcaster')
    expect(screen.getByRole('status', { name: 'Preparing Farcaster sign-in' })).toBeTruthy()
    expect(start).toHaveBeenCalledTimes(1)
    expect(start).toHaveBeenCalledWith(client)
    expect(wait).not.toHaveBeenCalled()

    await act(async () => started.resolve(CHANNEL))
    expect(heading()).toBe('Sign in with Farcaster')
    expect(screen.getByText("Scan with your phone's camera to continue.")).toBeTruthy()
    expect(qr()?.getAttribute('data-qr-value')).toBe(CHANNEL.connectUri)
    // Spec 01 §9: the sign-in code is the screen's content, so a large one (240 to 280 px).
    expect(qr()?.getAttribute('width')).toBe('280')
    expect(qr()?.style.minWidth).toBe('240px')
    const open = screen.getByRole('link', { name: 'Open in app' })
    expect(open.getAttribute('href')).toBe(CHANNEL.connectUri)
    expect(wait).toHaveBeenCalledTimes(1)
    expect(wait.mock.calls[0]?.[0]).toBe(client)
    expect(wait.mock.calls[0]?.[1]).toBe('channel-1')
    expect(signalOf()).toBeInstanceOf(AbortSignal)
    expect(signalOf().aborted).toBe(false)
  })

  it("on a phone: no QR code, an 'Open Farcaster' deep link", async () => {
    vi.spyOn(navigator, 'userAgent', 'get').mockReturnValue(
      'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) Mobile/15E148',
    )
    renderLogin()
    await flush()
    expect(qr()).toBeNull()
    expect(screen.getByText('Open the Farcaster app to approve.')).toBeTruthy()
    const open = screen.getByRole('link', { name: 'Open Farcaster' })
    expect(open.getAttribute('href')).toBe(CHANNEL.connectUri)
    expect(open.className).toContain('lk-btn-primary')
  })

  it('on completion, logs in with the channel token, message, signature and fid', async () => {
    const proof = deferred<FarcasterSignature>()
    wait.mockReturnValue(proof.promise)
    const loggedIn = deferred<{ user: User; isNewUser: boolean }>()
    login.mockReturnValue(loggedIn.promise)
    const { onDone, onError } = renderLogin()
    await flush()

    await act(async () => proof.resolve(PROOF))
    expect(heading()).toBe('Verifying connection to Farcaster')
    expect(login).toHaveBeenCalledTimes(1)
    expect(login).toHaveBeenCalledWith(client, {
      channelToken: 'channel-1',
      message: PROOF.message,
      signature: '0xdeadbeef',
      fid: 1234,
      mode: 'login-or-sign-up',
    })
    expect(link).not.toHaveBeenCalled()
    expect(onDone).not.toHaveBeenCalled()

    await act(async () => loggedIn.resolve({ user: USER, isNewUser: true }))
    expect(onDone).toHaveBeenCalledTimes(1)
    expect(onDone).toHaveBeenCalledWith({ user: USER, isNewUser: true })
    expect(onError).not.toHaveBeenCalled()
  })

  it("with disableSignup, logs in with mode 'no-signup'", async () => {
    wait.mockResolvedValue(PROOF)
    login.mockResolvedValue({ user: USER, isNewUser: false })
    const { onDone } = renderLogin({ disableSignup: true })
    await flush()
    expect(login).toHaveBeenCalledWith(client, expect.objectContaining({ mode: 'no-signup' }))
    expect(onDone).toHaveBeenCalledWith({ user: USER, isNewUser: false })
  })

  it('with the link intent, links the Farcaster account instead of logging in', async () => {
    wait.mockResolvedValue(PROOF)
    const { onDone } = renderLogin({ intent: 'link' })
    await flush()
    expect(login).not.toHaveBeenCalled()
    expect(link).toHaveBeenCalledTimes(1)
    expect(link).toHaveBeenCalledWith(client, {
      channelToken: 'channel-1',
      message: PROOF.message,
      signature: '0xdeadbeef',
      fid: 1234,
    })
    expect(onDone).toHaveBeenCalledWith({ user: USER, isNewUser: false })
  })

  it("a timeout reads 'The request timed out. Try again.'; Retry opens a new channel", async () => {
    wait.mockRejectedValueOnce(new LatchkeyError('FARCASTER_TIMEOUT'))
    const { onError, onDone } = renderLogin()
    await flush()
    expect(heading()).toBe('The request timed out. Try again.')
    expect(screen.getByRole('alert').textContent).toBe('The request timed out. Try again.')
    expect(screen.queryByText('Authentication failed')).toBeNull()
    expect(onError).toHaveBeenCalledTimes(1)
    expect(errorCodes(onError)).toContain('FARCASTER_TIMEOUT')
    expect(qr()).toBeNull()

    const second: StartFarcasterLoginReturnType = {
      channelToken: 'channel-2',
      connectUri: 'https://farcaster.xyz/~/siwf?channelToken=channel-2',
      expiresAt: Date.now() + 600_000,
    }
    const started = deferred<StartFarcasterLoginReturnType>()
    start.mockReturnValueOnce(started.promise)
    fireEvent.click(screen.getByRole('button', { name: 'Retry' }))
    expect(screen.getByRole('status', { name: 'Preparing Farcaster sign-in' })).toBeTruthy()
    expect(start).toHaveBeenCalledTimes(2)
    await act(async () => started.resolve(second))
    expect(qr()?.getAttribute('data-qr-value')).toBe(second.connectUri)
    expect(wait).toHaveBeenCalledTimes(2)
    expect(wait.mock.calls[1]?.[1]).toBe('channel-2')
    expect(signalOf(1).aborted).toBe(false)
    expect(onDone).not.toHaveBeenCalled()
  })

  it.each([
    [
      'the relay refuses the channel',
      () => wait.mockRejectedValue(new LatchkeyError('FARCASTER_RELAY_ERROR')),
      'FARCASTER_RELAY_ERROR',
    ],
    [
      'the channel cannot be opened',
      () => start.mockRejectedValue(new LatchkeyError('NETWORK_ERROR')),
      'NETWORK_ERROR',
    ],
    [
      'the server refuses the signature',
      () => {
        wait.mockResolvedValue(PROOF)
        login.mockRejectedValue(new LatchkeyError('AUTHENTICATION_FAILED'))
      },
      'AUTHENTICATION_FAILED',
    ],
  ] as const)("reads 'Authentication failed' when %s", async (_, arrange, code) => {
    arrange()
    const { onError, onDone } = renderLogin()
    await flush()
    expect(heading()).toBe('Authentication failed')
    const title = new LatchkeyError(code).userMessage.title
    expect(screen.getByRole('alert').textContent).toBe(title)
    expect(errorCodes(onError)).toContain(code)
    expect(onDone).not.toHaveBeenCalled()
    // Each of these is retryable; Retry opens a new channel.
    fireEvent.click(screen.getByRole('button', { name: 'Retry' }))
    expect(start).toHaveBeenCalledTimes(2)
  })

  it("something unexpected reads 'Authentication failed' (INTERNAL_ERROR)", async () => {
    wait.mockRejectedValue(new Error('boom'))
    const { onError } = renderLogin()
    await flush()
    expect(heading()).toBe('Authentication failed')
    expect(screen.getByRole('alert').textContent).toBe('Something went wrong')
    expect(errorCodes(onError)).toContain('INTERNAL_ERROR')
  })

  it('a failed link reads its reason under "Authentication failed"', async () => {
    wait.mockResolvedValue(PROOF)
    link.mockRejectedValue(new LatchkeyError('ACCOUNT_ALREADY_LINKED'))
    const { onError } = renderLogin({ intent: 'link' })
    await flush()
    expect(heading()).toBe('Authentication failed')
    expect(
      screen.getAllByText('This account has already been linked to another user.').length,
    ).toBeGreaterThan(0)
    expect(errorCodes(onError)).toContain('ACCOUNT_ALREADY_LINKED')
  })

  it("a second Farcaster account reads the server's message, without Retry (spec 01 §8)", async () => {
    const message = 'Only one Farcaster account can be linked to an account.'
    wait.mockResolvedValue(PROOF)
    link.mockRejectedValue(
      new LatchkeyError('CANNOT_LINK_MORE_OF_TYPE', message, {
        status: 400,
        serverMessage: message,
      }),
    )
    renderLogin({ intent: 'link' })
    await flush()
    expect(heading()).toBe('Authentication failed')
    expect(screen.getByRole('alert').textContent).toBe(message)
    expect(screen.queryByRole('button', { name: 'Retry' })).toBeNull()
  })

  it('Back leaves the method from the QR code and from a failure', async () => {
    const { onBack } = renderLogin()
    await flush()
    fireEvent.click(screen.getByRole('button', { name: 'Back' }))
    expect(onBack).toHaveBeenCalledTimes(1)
    cleanup()

    wait.mockRejectedValue(new LatchkeyError('FARCASTER_TIMEOUT'))
    const second = renderLogin()
    await flush()
    fireEvent.click(screen.getByRole('button', { name: 'Back' }))
    expect(second.onBack).toHaveBeenCalledTimes(1)
  })

  it('unmounting aborts the wait and reports nothing', async () => {
    const { unmount, onError, onDone } = renderLogin()
    await flush()
    const signal = signalOf()
    expect(signal.aborted).toBe(false)
    unmount()
    expect(signal.aborted).toBe(true)
    await flush()
    expect(onError).not.toHaveBeenCalled()
    expect(onDone).not.toHaveBeenCalled()
  })

  it('unmounting before the channel opens never starts the wait', async () => {
    const started = deferred<StartFarcasterLoginReturnType>()
    start.mockReturnValue(started.promise)
    const { unmount, onError } = renderLogin()
    unmount()
    await act(async () => started.resolve(CHANNEL))
    expect(wait).not.toHaveBeenCalled()
    expect(onError).not.toHaveBeenCalled()
  })

  it('a proof that arrives after unmounting logs nobody in', async () => {
    const proof = deferred<FarcasterSignature>()
    wait.mockReturnValue(proof.promise)
    const { unmount, onDone } = renderLogin()
    await flush()
    unmount()
    await act(async () => proof.resolve(PROOF))
    expect(login).not.toHaveBeenCalled()
    expect(onDone).not.toHaveBeenCalled()
  })
})

/** Opens the modal straight on Farcaster (`login({ method: 'farcaster' })`). */
function Host() {
  const { ready, authenticated, login: openLogin } = useLatchkey()
  if (!ready) return null
  return authenticated ? (
    <p>Logged in</p>
  ) : (
    <button type="button" onClick={() => openLogin({ method: 'farcaster' })}>
      Log in
    </button>
  )
}

describe('Farcaster in the modal', () => {
  // The modal's lazy chunk, loaded once: opening the dialog then waits on nothing but promises.
  beforeAll(() => import('../../chunk.ts'))
  const json = (status: number, body: unknown) =>
    new Response(JSON.stringify(body), {
      status,
      headers: { 'content-type': 'application/json' },
    })

  it('polls the channel, logs in and shows the success status', async () => {
    const actual = await vi.importActual<typeof import('@latchkey/core')>('@latchkey/core')
    start.mockImplementation(actual.startFarcasterLogin)
    wait.mockImplementation(actual.waitForFarcaster)
    login.mockImplementation(actual.loginWithFarcaster)

    const calls: Array<{ path: string; body: unknown; headers: Headers }> = []
    const base = createFakeServer()
    vi.stubGlobal('fetch', async (input: RequestInfo | URL, init?: RequestInit) => {
      const path = new URL(String(input)).pathname
      const body = typeof init?.body === 'string' ? JSON.parse(init.body) : undefined
      calls.push({ path, body, headers: new Headers(init?.headers) })
      if (path === '/api/v1/farcaster/init')
        return json(200, {
          channel_token: 'channel-1',
          connect_uri: CHANNEL.connectUri,
          expires_at: Date.now() + 600_000,
        })
      if (path === '/api/v1/farcaster/status')
        return json(200, {
          state: 'completed',
          message: PROOF.message,
          signature: PROOF.signature,
          fid: PROOF.fid,
          username: 'alice',
          display_name: 'Alice',
          bio: null,
          pfp_url: null,
        })
      if (path === '/api/v1/farcaster/authenticate') {
        const now = Math.floor(Date.now() / 1000)
        return json(200, {
          user: wireUser('alice@example.com', now),
          is_new_user: false,
          token: accessToken(now + 3600),
          refresh_token: 'refresh-1',
          identity_token: null,
          session_update_action: 'set',
        })
      }
      return base.fetch(input, init)
    })

    render(
      <LatchkeyProvider
        appId={APP_ID}
        apiUrl={API_URL}
        config={{ loginMethods: ['email', 'farcaster'] }}
      >
        <Host />
      </LatchkeyProvider>,
    )
    fireEvent.click(await screen.findByRole('button', { name: 'Log in' }))
    await screen.findByRole('heading', { name: 'Successfully connected with Farcaster' })
    const status = calls.find((c) => c.path === '/api/v1/farcaster/status')
    expect(status?.headers.get('farcaster-channel-token')).toBe('channel-1')
    expect(calls.find((c) => c.path === '/api/v1/farcaster/authenticate')?.body).toEqual({
      channel_token: 'channel-1',
      message: PROOF.message,
      signature: PROOF.signature,
      fid: PROOF.fid,
      mode: 'login-or-sign-up',
    })
    await screen.findByText('Logged in')
  })
})
