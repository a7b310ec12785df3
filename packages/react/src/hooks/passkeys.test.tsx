import { startAuthentication, startRegistration } from '@simplewebauthn/browser'
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react'
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest'
import { LatchkeyProvider } from '../LatchkeyProvider.tsx'
import { API_URL, APP_ID, accessToken, createFakeServer, wireUser } from '../test/fake-server.ts'
import { useLatchkey } from './useLatchkey.ts'
import { useLinkAccount } from './useLinkAccount.ts'
import { useLoginWithPasskey } from './useLoginWithPasskey.ts'
import { useManagePasskeys } from './useManagePasskeys.ts'

// The passkey hooks against a scripted server; the browser's WebAuthn side is
// mocked where core loads it (`@simplewebauthn/browser`).

vi.mock('@simplewebauthn/browser', () => ({
  startRegistration: vi.fn(),
  startAuthentication: vi.fn(),
  WebAuthnAbortService: { cancelCeremony: vi.fn() },
}))

const now = () => Math.floor(Date.now() / 1000)
const passkeyAccount = (n: number) => ({
  type: 'passkey',
  credential_id: `cred-${n}`,
  authenticator_name: null,
  created_with_browser: 'Chrome',
  created_with_os: 'Linux',
  created_with_device: null,
  enrolled_in_mfa: false,
  verified_at: now(),
  first_verified_at: now(),
  latest_verified_at: now(),
})
let passkeys: ReturnType<typeof passkeyAccount>[]
let paths: string[]
const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } })
const user = () => {
  const base = wireUser('alice@example.com', now())
  return { ...base, linked_accounts: [...base.linked_accounts, ...passkeys] }
}

// The modal's lazy chunks (the dialog, the passkey screen), loaded once up front: opening
// the modal then waits on nothing but promises.
beforeAll(async () => {
  await import('../modal/chunk.ts')
  await import('../modal/methods/passkey/PasskeyLogin.tsx')
})
beforeEach(() => {
  localStorage.clear()
  passkeys = []
  paths = []
  vi.stubGlobal('PublicKeyCredential', () => {})
  vi.mocked(startRegistration).mockResolvedValue({
    id: 'cred-new',
    rawId: 'cred-new',
    type: 'public-key',
    response: { clientDataJSON: 'cdj', attestationObject: 'ao' },
    clientExtensionResults: {},
  })
  vi.mocked(startAuthentication).mockResolvedValue({
    id: 'cred-1',
    rawId: 'cred-1',
    type: 'public-key',
    response: { clientDataJSON: 'cdj', authenticatorData: 'ad', signature: 'sig' },
    clientExtensionResults: {},
  })
  const base = createFakeServer()
  vi.stubGlobal('fetch', async (input: RequestInfo | URL, init?: RequestInit) => {
    const path = new URL(String(input)).pathname
    paths.push(path)
    if (path.endsWith('/init'))
      return json(200, { relying_party: 'localhost', options: { challenge: 'c' } })
    if (path === '/api/v1/passkeys/link') {
      passkeys.push(passkeyAccount(passkeys.length + 1))
      return json(200, user())
    }
    if (path === '/api/v1/passkeys/authenticate')
      return json(200, {
        user: user(),
        is_new_user: false,
        token: accessToken(now() + 3600),
        refresh_token: 'refresh-1',
        identity_token: null,
        session_update_action: 'set',
      })
    if (path === '/api/v1/users/me') return json(200, { user: user(), identity_token: null })
    return base.fetch(input, init)
  })
})
afterEach(() => {
  cleanup()
  vi.unstubAllGlobals()
  vi.clearAllMocks()
})

function Account() {
  const { ready } = useLatchkey()
  const { linkPasskey } = useLinkAccount()
  const { passkeys: linked, canAddPasskey, managePasskeys } = useManagePasskeys()
  if (!ready) return null
  return (
    <div>
      <p>Passkeys: {linked.length}</p>
      <p>{canAddPasskey ? 'Can add' : 'At the limit'}</p>
      <button type="button" onClick={linkPasskey}>
        Link passkey
      </button>
      <button type="button" onClick={() => void managePasskeys()}>
        Manage passkeys
      </button>
    </div>
  )
}

const renderLoggedIn = () => {
  localStorage.setItem('latchkey:token', accessToken(now() + 3600))
  return render(
    <LatchkeyProvider appId={APP_ID} apiUrl={API_URL}>
      <Account />
    </LatchkeyProvider>,
  )
}

describe('useLinkAccount().linkPasskey / useManagePasskeys', () => {
  it('links a passkey through the modal; the list follows the session', async () => {
    renderLoggedIn()
    await screen.findByText('Passkeys: 0')
    fireEvent.click(screen.getByRole('button', { name: 'Link passkey' }))
    await screen.findByText('Your account is linked.')
    expect(paths).toContain('/api/v1/passkeys/link/init')
    expect(startRegistration).toHaveBeenCalledTimes(1)
    await screen.findByText('Passkeys: 1')
  })

  it('opens the management screen with the user’s passkeys; its Add links one', async () => {
    passkeys = [passkeyAccount(1)]
    renderLoggedIn()
    await screen.findByText('Passkeys: 1')
    fireEvent.click(screen.getByRole('button', { name: 'Manage passkeys' }))
    await screen.findByRole('heading', { name: 'Secure your account with a passkey' })
    fireEvent.click(screen.getByRole('button', { name: 'Add new passkey' }))
    await screen.findByRole('heading', { name: 'Passkeys updated' })
    await screen.findByText('Passkeys: 2')
  })

  it('canAddPasskey turns false at 5', async () => {
    passkeys = [1, 2, 3, 4, 5].map(passkeyAccount)
    renderLoggedIn()
    await screen.findByText('At the limit')
  })
})

function HeadlessLogin({ onComplete }: { onComplete(result: unknown): void }) {
  const { state, loginWithPasskey } = useLoginWithPasskey({ onComplete })
  return (
    <div>
      <p>Status: {state.status}</p>
      <button type="button" onClick={() => void loginWithPasskey()}>
        Passkey
      </button>
    </div>
  )
}

describe('useLoginWithPasskey', () => {
  it('logs in without the modal and reports loginMethod passkey', async () => {
    const onComplete = vi.fn()
    render(
      <LatchkeyProvider appId={APP_ID} apiUrl={API_URL}>
        <HeadlessLogin onComplete={onComplete} />
      </LatchkeyProvider>,
    )
    fireEvent.click(await screen.findByRole('button', { name: 'Passkey' }))
    await screen.findByText('Status: done')
    await waitFor(() =>
      expect(onComplete).toHaveBeenCalledWith(
        expect.objectContaining({ loginMethod: 'passkey', isNewUser: false }),
      ),
    )
    expect(paths).toEqual(
      expect.arrayContaining([
        '/api/v1/passkeys/authenticate/init',
        '/api/v1/passkeys/authenticate',
      ]),
    )
    expect(screen.queryByRole('dialog')).toBeNull()
  })
})
