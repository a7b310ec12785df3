import {
  createLatchkeyClient,
  createMemoryStorage,
  LatchkeyError,
  toPasskeyError,
} from '@latchkey/core'
import {
  startAuthentication,
  startRegistration,
  WebAuthnAbortService,
} from '@simplewebauthn/browser'
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { API_URL, APP_ID, accessToken, wireUser } from '../../../test/fake-server.ts'
import PasskeyLogin, { type PasskeyLoginProps } from './PasskeyLogin.tsx'
import { PasskeyStatusScreen } from './PasskeyStatusScreen.tsx'

// The browser's side is mocked where core loads it; the server is a scripted fetch.
vi.mock('@simplewebauthn/browser', () => ({
  startRegistration: vi.fn(),
  startAuthentication: vi.fn(),
  WebAuthnAbortService: { cancelCeremony: vi.fn() },
}))

const attestation = {
  id: 'cred-1',
  rawId: 'cred-1',
  type: 'public-key' as const,
  response: { clientDataJSON: 'cdj', attestationObject: 'ao' },
  clientExtensionResults: {},
}
const assertion = {
  id: 'cred-1',
  rawId: 'cred-1',
  type: 'public-key' as const,
  response: { clientDataJSON: 'cdj', authenticatorData: 'ad', signature: 'sig' },
  clientExtensionResults: {},
}

function setup(props: Partial<PasskeyLoginProps> = {}) {
  const paths: string[] = []
  const fetch = (async (input: RequestInfo | URL) => {
    const path = new URL(String(input)).pathname
    paths.push(path)
    const body = path.endsWith('/init')
      ? { relying_party: 'localhost', options: { challenge: 'challenge-1' } }
      : {
          user: wireUser('a@b.co', 1_700_000_000),
          is_new_user: path.endsWith('/register'),
          token: accessToken(Math.floor(Date.now() / 1000) + 3600),
          refresh_token: 'refresh-1',
          identity_token: null,
          session_update_action: 'set',
        }
    return new Response(JSON.stringify(body), { headers: { 'content-type': 'application/json' } })
  }) as typeof globalThis.fetch
  const client = createLatchkeyClient({
    appId: APP_ID,
    apiUrl: API_URL,
    fetch,
    storage: createMemoryStorage(),
    cookies: { get: () => null, set: () => {}, remove: () => {} },
    http: { maxRetries: 0 },
  })
  const onDone = vi.fn()
  const onError = vi.fn()
  const onBack = vi.fn()
  render(
    <PasskeyLogin
      client={client}
      intent="login"
      disableSignup={false}
      passkeysForSignup={false}
      onDone={onDone}
      onError={onError}
      onBack={onBack}
      {...props}
    />,
  )
  return { paths, onDone, onError, onBack }
}

beforeEach(() => {
  vi.stubGlobal('PublicKeyCredential', () => {})
  vi.mocked(startRegistration).mockResolvedValue(attestation)
  vi.mocked(startAuthentication).mockResolvedValue(assertion)
})
afterEach(() => {
  cleanup()
  vi.unstubAllGlobals()
  vi.clearAllMocks()
})

describe('PasskeyLogin (spec 01 §2 "Passkey")', () => {
  it('logs in straight away when passkeys cannot create accounts', async () => {
    const { paths, onDone } = setup()
    await waitFor(() =>
      expect(onDone).toHaveBeenCalledWith(expect.objectContaining({ isNewUser: false })),
    )
    expect(screen.queryByText('Create new account')).toBeNull()
    expect(paths).toEqual(['/api/v1/passkeys/authenticate/init', '/api/v1/passkeys/authenticate'])
  })

  it("offers 'Create new account' or 'Log in with a passkey' when they can", async () => {
    const { paths, onDone } = setup({ passkeysForSignup: true })
    expect(screen.getByRole('button', { name: 'Log in with a passkey' })).toBeTruthy()
    fireEvent.click(screen.getByRole('button', { name: 'Create new account' }))
    await waitFor(() =>
      expect(onDone).toHaveBeenCalledWith(expect.objectContaining({ isNewUser: true })),
    )
    expect(paths).toEqual(['/api/v1/passkeys/register/init', '/api/v1/passkeys/register'])
    expect(startAuthentication).not.toHaveBeenCalled()
  })

  it('skips the choice when sign-up is disabled', async () => {
    const { onDone } = setup({ passkeysForSignup: true, disableSignup: true })
    expect(screen.queryByText('Create new account')).toBeNull()
    await waitFor(() => expect(onDone).toHaveBeenCalled())
  })

  it("shows 'Passkey request timed out or rejected by user.' with Retry, which asks again", async () => {
    vi.mocked(startAuthentication).mockRejectedValueOnce(
      new DOMException('The operation either timed out or was not allowed.', 'NotAllowedError'),
    )
    const { onDone, onError } = setup()
    expect(
      await screen.findByRole('heading', {
        name: 'Passkey request timed out or rejected by user.',
      }),
    ).toBeTruthy()
    expect(onError).toHaveBeenCalledWith(expect.objectContaining({ code: 'PASSKEY_FAILED' }))
    fireEvent.click(screen.getByRole('button', { name: 'Retry' }))
    await waitFor(() => expect(onDone).toHaveBeenCalled())
    expect(startAuthentication).toHaveBeenCalledTimes(2)
  })

  it('a refused login also names the no-passkey case; without passkey sign-up, another way in (issue 16, 4b)', async () => {
    vi.mocked(startAuthentication).mockRejectedValueOnce(
      new DOMException('The operation either timed out or was not allowed.', 'NotAllowedError'),
    )
    setup()
    await screen.findByRole('heading', { name: 'Passkey request timed out or rejected by user.' })
    screen.getByText('No passkey for this app on this device? Log in another way, then add one.')
    expect(screen.queryByRole('button', { name: 'Create new account' })).toBeNull()
  })

  it("…and where passkeys may create accounts, offers 'Create new account', which signs up", async () => {
    vi.mocked(startAuthentication).mockRejectedValueOnce(
      new DOMException('The operation either timed out or was not allowed.', 'NotAllowedError'),
    )
    const { paths, onDone } = setup({ passkeysForSignup: true })
    fireEvent.click(screen.getByRole('button', { name: 'Log in with a passkey' }))
    await screen.findByRole('heading', { name: 'Passkey request timed out or rejected by user.' })
    screen.getByText('No passkey for this app on this device? Create a new account with one.')
    screen.getByRole('button', { name: 'Retry' })
    fireEvent.click(screen.getByRole('button', { name: 'Create new account' }))
    await waitFor(() =>
      expect(onDone).toHaveBeenCalledWith(expect.objectContaining({ isNewUser: true })),
    )
    expect(paths.slice(-2)).toEqual(['/api/v1/passkeys/register/init', '/api/v1/passkeys/register'])
  })

  it("a device that already holds this account's passkey: 'This passkey is already linked' (issue 16, 4b)", () => {
    // What the browser throws when the authenticator holds one of `excludeCredentials`.
    const error = toPasskeyError(new DOMException('Previously registered.', 'InvalidStateError'))
    render(
      <PasskeyStatusScreen
        state={{ status: 'error', action: 'link', error, retryable: true }}
        onRetry={() => {}}
        onSignup={() => {}}
      />,
    )
    expect(screen.getByRole('heading').textContent).toBe('This passkey is already linked')
    screen.getByText('Use another device or security key.')
    expect(screen.queryByText(/No passkey for this app/)).toBeNull()
    expect(screen.queryByRole('button', { name: 'Create new account' })).toBeNull()
    screen.getByRole('button', { name: 'Retry' })
  })

  it("without WebAuthn: 'WebAuthn is not supported in this browser', no Retry", async () => {
    vi.unstubAllGlobals()
    const { paths } = setup()
    expect(
      await screen.findByRole('heading', { name: 'WebAuthn is not supported in this browser' }),
    ).toBeTruthy()
    expect(screen.queryByRole('button', { name: 'Retry' })).toBeNull()
    expect(paths).toEqual([])
  })

  it('Back from the status screen returns to the choice and dismisses the prompt', async () => {
    vi.mocked(startAuthentication).mockReturnValue(new Promise(() => {}))
    setup({ passkeysForSignup: true })
    fireEvent.click(screen.getByRole('button', { name: 'Log in with a passkey' }))
    expect(await screen.findByRole('status', { name: 'Waiting for your passkey' })).toBeTruthy()
    fireEvent.click(screen.getByRole('button', { name: 'Back' }))
    expect(screen.getByRole('button', { name: 'Create new account' })).toBeTruthy()
    await waitFor(() => expect(WebAuthnAbortService.cancelCeremony).toHaveBeenCalled())
  })

  it('links a passkey for the link intent', async () => {
    const { paths, onError } = setup({ intent: 'link' })
    // Nobody is logged in here: the link is refused before any prompt.
    await waitFor(() =>
      expect(onError).toHaveBeenCalledWith(expect.objectContaining({ code: 'NOT_AUTHENTICATED' })),
    )
    expect(paths).toEqual([])
    expect(startRegistration).not.toHaveBeenCalled()
  })
})

describe('PasskeyStatusScreen', () => {
  it('names each step', () => {
    const { rerender } = render(
      <PasskeyStatusScreen state={{ status: 'generating-challenge', action: 'link' }} />,
    )
    expect(screen.getByRole('heading').textContent).toBe('Add new passkey')
    expect(screen.getByRole('status', { name: 'Preparing passkey request' })).toBeTruthy()
    rerender(<PasskeyStatusScreen state={{ status: 'submitting-response', action: 'login' }} />)
    expect(screen.getByRole('status', { name: 'Verifying passkey' })).toBeTruthy()
  })

  it("the server's link limit: its words, and no Retry", () => {
    const onRetry = vi.fn()
    render(
      <PasskeyStatusScreen
        state={{
          status: 'error',
          action: 'link',
          error: new LatchkeyError('PASSKEY_LINK_LIMIT'),
          retryable: false,
        }}
        onRetry={onRetry}
      />,
    )
    expect(screen.getByRole('heading').textContent).toBe('Cannot link more passkeys to account.')
    expect(screen.queryByRole('button', { name: 'Retry' })).toBeNull()
  })

  it("'Unknown error occurred.' is retryable", () => {
    const onRetry = vi.fn()
    render(
      <PasskeyStatusScreen
        state={{
          status: 'error',
          action: 'login',
          error: new LatchkeyError('PASSKEY_UNKNOWN_ERROR'),
          retryable: true,
        }}
        onRetry={onRetry}
      />,
    )
    expect(screen.getByRole('heading').textContent).toBe('Unknown error occurred.')
    fireEvent.click(screen.getByRole('button', { name: 'Retry' }))
    expect(onRetry).toHaveBeenCalled()
  })
})
