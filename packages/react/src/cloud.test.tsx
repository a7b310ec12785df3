import { LatchkeyError } from '@latchkey/core'
import {
  MODAL_OPEN_DELAY_MS,
  SUCCESS_CLOSE_DELAY_MS,
  WALLET_CREATED_CLOSE_DELAY_MS,
} from '@latchkey/protocol/constants'
import { act, cleanup, fireEvent, screen } from '@testing-library/react'
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest'
import { resumeCloudConsent } from './cloud.ts'
import { useSetWalletRecovery } from './hooks/useSetWalletRecovery.ts'
import { useSignMessage } from './hooks/useSignMessage.ts'
import { APP_ID, appConfig } from './test/fake-server.ts'
import { ETH_ADDRESS, renderWithWallets } from './test/wallet.tsx'

const STATE = 'state-aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa'
const VERIFIER = 'verifier-aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa'

/** What the page kept before leaving for the provider, and the address it came back to. */
function cameBackFrom(
  provider: 'google-drive' | 'icloud',
  action: 'set-recovery' | 'recover' | 'create-wallet',
  query: string,
  chains: Array<'ethereum' | 'solana'> = ['ethereum'],
) {
  sessionStorage.setItem(
    `latchkey:${APP_ID}:cloud-recovery`,
    JSON.stringify({
      provider,
      action,
      stateCode: STATE,
      codeVerifier: VERIFIER,
      entropyId: ETH_ADDRESS,
      chains,
      isNewUser: true,
      createdAt: Date.now(),
    }),
  )
  history.replaceState(null, '', `/wallet?${query}`)
}

// The modal's lazy chunk, loaded once: opening the dialog then waits on nothing but promises.
beforeAll(() => import('./modal/chunk.ts'))
afterEach(() => {
  cleanup()
  sessionStorage.clear()
  history.replaceState(null, '', '/')
  vi.useRealTimers()
})

/** Under fake timers: lets pending promises settle and React commit, then `ms` pass. */
const elapse = (ms = 0) => act(() => vi.advanceTimersByTimeAsync(ms))

describe('coming back from a cloud consent', () => {
  it('finishes a Google Drive backup with code, state and verifier, and cleans the address bar', async () => {
    cameBackFrom('google-drive', 'set-recovery', `code=c-123&state=${STATE}&scope=drive.appdata`)
    const { instance, enclave } = renderWithWallets(null)
    expect(resumeCloudConsent(instance)).toBe(true)
    expect(location.search).toBe('')
    expect(await screen.findByRole('heading', { name: 'Success' })).toBeTruthy()
    expect(screen.getByText('Your wallet is backed up to Google Drive.')).toBeTruthy()
    const setRecovery = enclave.mock.calls.find(
      ([event]) => event === 'latchkey:wallets:set-recovery',
    )
    expect(setRecovery?.[1]).toMatchObject({
      entropy_id: ETH_ADDRESS,
      recovery: {
        method: 'google-drive',
        oauth: {
          provider: 'google-drive',
          authorization_code: 'c-123',
          state_code: STATE,
          code_verifier: VERIFIER,
        },
      },
    })
  })

  it("shows 'Back up with Google Drive unsuccessful' with Try again when the enclave fails", async () => {
    cameBackFrom('google-drive', 'set-recovery', `code=c-123&state=${STATE}`)
    const { instance } = renderWithWallets(null, {
      enclave: (event) => {
        if (event === 'latchkey:wallets:set-recovery')
          throw new LatchkeyError('CLOUD_BACKUP_FAILED')
        return undefined
      },
    })
    resumeCloudConsent(instance)
    expect(
      await screen.findByRole('heading', { name: 'Back up with Google Drive unsuccessful' }),
    ).toBeTruthy()
    expect(screen.getByRole('button', { name: 'Try again' })).toBeTruthy()
  })

  it('a recovery that fails asks the user to pick the account that holds the backup', async () => {
    cameBackFrom('icloud', 'recover', 'ckWebAuthToken=token-1')
    const { instance, enclave } = renderWithWallets(null, {
      enclave: (event) => {
        if (event === 'latchkey:wallets:connect')
          return { entropy_id: ETH_ADDRESS, status: 'needs-recovery', recovery_method: 'icloud' }
        if (event === 'latchkey:wallets:recover') throw new LatchkeyError('CLOUD_RECOVERY_FAILED')
        return undefined
      },
    })
    resumeCloudConsent(instance)
    expect(
      await screen.findByRole('heading', { name: 'Recovery with iCloud unsuccessful' }),
    ).toBeTruthy()
    expect(
      screen.getByText(
        'Please verify that you are selecting the iCloud account associated with your backup.',
      ),
    ).toBeTruthy()
    const recover = enclave.mock.calls.find(([event]) => event === 'latchkey:wallets:recover')
    expect(recover?.[1]).toMatchObject({
      oauth: { provider: 'icloud', authorization_code: 'token-1', state_code: STATE },
    })
  })

  it('oauth state mismatch: a return with a foreign state runs nothing and says so', async () => {
    cameBackFrom('google-drive', 'set-recovery', 'code=stolen&state=someone-elses-state-aaaaaaa')
    const { instance, enclave } = renderWithWallets(null)
    resumeCloudConsent(instance)
    expect(
      await screen.findByRole('heading', {
        name: 'Unexpected auth flow. This may be a phishing attempt.',
      }),
    ).toBeTruthy()
    expect(enclave).not.toHaveBeenCalled()
  })

  it("finishes the post-login wallet creation: 'Success' for 1400 ms, then the greeting for 2500 ms", async () => {
    vi.useFakeTimers()
    cameBackFrom('google-drive', 'create-wallet', `code=c-9&state=${STATE}`, ['solana'])
    const { instance, enclave, client } = renderWithWallets(null, {
      chains: ['ethereum'],
      enclave: (event) => (event === 'latchkey:wallets:add' ? addedSolana() : undefined),
    })
    Object.assign(client, { getAppConfig: async () => appConfig({ name: 'Demo' }) })
    resumeCloudConsent(instance)
    await elapse(MODAL_OPEN_DELAY_MS)
    // Spec 02 §2: "On success the message shows for 1400 ms, then … the wallet-created screen."
    screen.getByRole('heading', { name: 'Success' })
    await elapse(SUCCESS_CLOSE_DELAY_MS - 1)
    expect(screen.queryByRole('heading', { name: 'Welcome to Demo' })).toBeNull()
    await elapse(1)
    screen.getByRole('heading', { name: 'Welcome to Demo' })
    await elapse(WALLET_CREATED_CLOSE_DELAY_MS - 1)
    expect(instance.getUiState().open).toBe(true)
    await elapse(1)
    expect(instance.getUiState().open).toBe(false)
    // The user already had a secret: it is recovered with the consent, then the chain is added.
    expect(enclave.mock.calls.map(([event]) => event)).toContain('latchkey:wallets:add')
  })
})

/** The enclave's answer to adding the Solana wallet: the user with it. */
const addedSolana = () => ({
  user: {
    id: 'did:latchkey:user1',
    created_at: 1,
    mfa_methods: [],
    has_accepted_terms: false,
    is_guest: false,
    linked_accounts: [
      {
        type: 'wallet',
        address: 'So1ana1111111111111111111111111111111111111',
        chain_type: 'solana',
        wallet_index: 0,
        wallet_client_type: 'latchkey',
        connector_type: 'embedded',
        imported: false,
        delegated: false,
        recovery_method: 'google-drive',
        entropy_id: ETH_ADDRESS,
        verified_at: 1,
        first_verified_at: 1,
        latest_verified_at: 1,
      },
    ],
  },
})

type Hooks = {
  setWalletRecovery: ReturnType<typeof useSetWalletRecovery>['setWalletRecovery']
  signMessage: ReturnType<typeof useSignMessage>['signMessage']
}
function Probe({ hooks }: { hooks: Hooks }) {
  hooks.setWalletRecovery = useSetWalletRecovery().setWalletRecovery
  hooks.signMessage = useSignMessage().signMessage
  return null
}

describe('starting a cloud consent', () => {
  it("'Update backup method' hides the current cloud method and offers the others", async () => {
    const hooks = {} as Hooks
    const { instance, client } = renderWithWallets(<Probe hooks={hooks} />)
    const served = appConfig()
    served.embedded_wallet_config.user_owned_recovery_options = [
      'user-passcode',
      'google-drive',
      'icloud',
    ]
    Object.assign(client, { getAppConfig: async () => served })
    await instance.loadAppConfig()
    const user = client.session.getState().user
    if (!user) throw new Error('no user')
    client.session.setUser({
      ...user,
      linkedAccounts: user.linkedAccounts.map((a) =>
        a.type === 'wallet' ? { ...a, recoveryMethod: 'google-drive' as const } : a,
      ),
    })
    void hooks.setWalletRecovery().catch(() => {})
    expect(await screen.findByRole('heading', { name: 'Update backup method' })).toBeTruthy()
    expect(screen.queryByRole('button', { name: 'Back up to Google Drive' })).toBeNull()
    expect(screen.getByRole('button', { name: 'Back up to iCloud' })).toBeTruthy()
    expect(screen.getByRole('button', { name: 'Set a password' })).toBeTruthy()
    expect(screen.getByRole('button', { name: 'Secure automatically' })).toBeTruthy()
    fireEvent.click(screen.getByRole('button', { name: 'Back up to iCloud' }))
    expect(await screen.findByRole('heading', { name: 'Back up with iCloud' })).toBeTruthy()
  })

  it("'Automatically secure your account': Confirm, then Success", async () => {
    vi.useFakeTimers()
    const hooks = {} as Hooks
    const { enclave, client } = renderWithWallets(<Probe hooks={hooks} />)
    const user = client.session.getState().user
    if (!user) throw new Error('no user')
    client.session.setUser({
      ...user,
      linkedAccounts: user.linkedAccounts.map((a) =>
        a.type === 'wallet' ? { ...a, recoveryMethod: 'user-passcode' as const } : a,
      ),
    })
    let settled = false
    const done = hooks.setWalletRecovery().finally(() => {
      settled = true
    })
    await elapse(MODAL_OPEN_DELAY_MS)
    fireEvent.click(screen.getByRole('button', { name: 'Secure automatically' }))
    fireEvent.click(screen.getByRole('button', { name: 'Confirm' }))
    await elapse()
    expect(screen.getByRole('heading', { name: 'Success' })).toBeTruthy()
    // The screen closes itself 1.4 s after Success; the call resolves then.
    await elapse(SUCCESS_CLOSE_DELAY_MS - 1)
    expect(settled).toBe(false)
    await elapse(1)
    expect(settled).toBe(true)
    await done
    const setRecovery = enclave.mock.calls.find(
      ([event]) => event === 'latchkey:wallets:set-recovery',
    )
    expect(setRecovery?.[1]).toMatchObject({ recovery: { method: 'latchkey' } })
  })

  it('a cloud-backed wallet on a new device asks to recover with its provider before signing', async () => {
    const hooks = {} as Hooks
    renderWithWallets(<Probe hooks={hooks} />, {
      enclave: (event) =>
        event === 'latchkey:wallets:connect'
          ? { entropy_id: ETH_ADDRESS, status: 'needs-recovery', recovery_method: 'google-drive' }
          : undefined,
    })
    void hooks
      .signMessage({ message: 'hi' }, { uiOptions: { showWalletUIs: false } })
      .catch(() => {})
    expect(await screen.findByRole('heading', { name: 'Recover with Google Drive' })).toBeTruthy()
    expect(screen.getByRole('button', { name: 'Continue with Google Drive' })).toBeTruthy()
  })

  it('the Sign message screen turns into Recover with iCloud for an iCloud-backed wallet', async () => {
    const hooks = {} as Hooks
    renderWithWallets(<Probe hooks={hooks} />, {
      enclave: (event) => {
        if (event === 'latchkey:wallets:connect')
          return { entropy_id: ETH_ADDRESS, status: 'needs-recovery', recovery_method: 'icloud' }
        return undefined
      },
    })
    const signed = hooks.signMessage({ message: 'hi' })
    fireEvent.click(await screen.findByRole('button', { name: 'Sign and continue' }))
    expect(await screen.findByRole('heading', { name: 'Recover with iCloud' })).toBeTruthy()
    fireEvent.click(screen.getByRole('button', { name: 'Close' }))
    await expect(signed).rejects.toMatchObject({ code: 'RECOVERY_EXITED' })
  })

  it('signing while logged out opens login and fails with NOT_AUTHENTICATED', async () => {
    const hooks = {} as Hooks
    const { instance } = renderWithWallets(<Probe hooks={hooks} />, { authenticated: false })
    await instance.client.session.initialize()
    await expect(hooks.signMessage({ message: 'hi' })).rejects.toMatchObject({
      code: 'NOT_AUTHENTICATED',
    })
    expect(instance.getUiState().open).toBe(true)
    expect(instance.getUiState().walletRequest).toBeNull()
  })
})
