import { SUCCESS_CLOSE_DELAY_MS, WALLET_CREATED_CLOSE_DELAY_MS } from '@latchkey/protocol/constants'
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { APP_ID, ETH0, setupWalletCreation, userWire } from '../../test/wallet-creation.ts'
import { WalletCreationScreen } from './WalletCreationScreen.tsx'

const setup = setupWalletCreation

afterEach(() => {
  cleanup()
  vi.useRealTimers()
})

/** Under fake timers: lets pending promises settle and React commit, then `ms` pass. */
const elapse = (ms = 0) => act(() => vi.advanceTimersByTimeAsync(ms))

describe('WalletCreationScreen', () => {
  it("creates the wallets, greets a new user with 'Welcome to {app}', and closes after 2500 ms", async () => {
    vi.useFakeTimers()
    const { client } = setup(async () => ({ user: userWire(true) }))
    const onDone = vi.fn()
    render(
      <WalletCreationScreen
        client={client}
        chains={['ethereum']}
        isNewUser
        appName="Demo"
        onDone={onDone}
        onFailed={vi.fn()}
        onClose={vi.fn()}
      />,
    )
    expect(screen.getByText('Setting up your wallet')).toBeTruthy()
    await elapse()
    expect(screen.getByText('Welcome to Demo')).toBeTruthy()
    expect(client.session.getState().user?.wallet?.address).toBe(ETH0)
    await elapse(WALLET_CREATED_CLOSE_DELAY_MS - 1)
    expect(onDone).not.toHaveBeenCalled()
    await elapse(1)
    expect(onDone).toHaveBeenCalledOnce()
  })

  it("greets a returning user with 'All set!' / 'Your account is secured.'", async () => {
    const { client } = setup(async () => ({ user: userWire(true) }))
    render(
      <WalletCreationScreen
        client={client}
        chains={['ethereum']}
        isNewUser={false}
        appName="Demo"
        onDone={vi.fn()}
        onFailed={vi.fn()}
        onClose={vi.fn()}
      />,
    )
    expect(await screen.findByText('All set!')).toBeTruthy()
    expect(screen.getByText('Your account is secured.')).toBeTruthy()
  })

  it('logs the user out and reports embedded_wallet_creation_failure_logout when creation fails', async () => {
    vi.useFakeTimers()
    const { client, calls } = setup(async () => {
      throw new Error('enclave down')
    })
    const onFailed = vi.fn()
    render(
      <WalletCreationScreen
        client={client}
        chains={['ethereum']}
        isNewUser
        appName="Demo"
        onDone={vi.fn()}
        onFailed={onFailed}
        onClose={vi.fn()}
      />,
    )
    await elapse()
    expect(onFailed).toHaveBeenCalledOnce()
    expect(client.session.getState().status).toBe('unauthenticated')
    expect(calls.some((url) => url.endsWith('/api/v1/analytics_events'))).toBe(true)
    expect(calls.some((url) => url.endsWith('/api/v1/sessions/logout'))).toBe(true)
  })

  it('asks for a recovery password first when the app requires user-owned recovery, and creates with it', async () => {
    vi.useFakeTimers()
    const calls: Array<{ event: string; data: unknown }> = []
    const { client } = setup(async (event, data) => {
      calls.push({ event, data })
      return { user: userWire(['ethereum', 'solana']) }
    })
    const onDone = vi.fn()
    render(
      <WalletCreationScreen
        client={client}
        chains={['ethereum', 'solana']}
        isNewUser
        appName="Demo"
        userOwnedRecovery={['user-passcode']}
        onDone={onDone}
        onFailed={vi.fn()}
        onClose={vi.fn()}
      />,
    )
    const password = 'Latchkey-test-123!'
    await elapse()
    expect(screen.getByRole('heading', { name: 'Secure Your Account' })).toBeTruthy()
    fireEvent.click(screen.getByRole('button', { name: 'Add password' }))
    fireEvent.change(screen.getByLabelText('Password', { exact: true }), {
      target: { value: password },
    })
    fireEvent.click(screen.getByRole('button', { name: 'Continue' }))
    fireEvent.click(screen.getByRole('button', { name: 'Continue' }))
    fireEvent.change(screen.getByLabelText('Confirm password'), {
      target: { value: password },
    })
    fireEvent.click(screen.getByRole('button', { name: 'Continue' }))
    fireEvent.click(screen.getByRole('checkbox'))
    expect(screen.queryByRole('button', { name: 'Cancel' })).toBeNull()
    fireEvent.click(screen.getByRole('button', { name: 'Set Password' }))
    await elapse()
    expect(calls).toHaveLength(1)
    expect(calls[0]).toMatchObject({
      event: 'latchkey:wallets:create',
      data: {
        chain_types: ['ethereum', 'solana'],
        recovery: { method: 'user-passcode', password },
      },
    })
    // The password screen's own 'Success', which closes itself 1.4 s later.
    screen.getByRole('heading', { name: 'Success' })
    await elapse(SUCCESS_CLOSE_DELAY_MS - 1)
    expect(onDone).not.toHaveBeenCalled()
    await elapse(1)
    expect(onDone).toHaveBeenCalledOnce()
  })

  it("offers 'Secure your account' when cloud backup is on offer, and leaves for the consent on Google Drive", async () => {
    const enclaveCalls: string[] = []
    const { client, calls } = setup(async (event) => {
      enclaveCalls.push(event)
      return {}
    })
    // Leaving for the provider is the end of this page's part: the test waits for that call.
    let left: () => void = () => {}
    const leaving = new Promise<void>((resolve) => (left = resolve))
    const assign = vi.spyOn(window.location, 'assign').mockImplementation(() => left())
    render(
      <WalletCreationScreen
        client={client}
        chains={['ethereum', 'solana']}
        isNewUser
        appName="Demo"
        userOwnedRecovery={['google-drive', 'user-passcode']}
        onDone={vi.fn()}
        onFailed={vi.fn()}
        onClose={vi.fn()}
      />,
    )
    expect(await screen.findByRole('heading', { name: 'Secure your account' })).toBeTruthy()
    expect(screen.getByRole('button', { name: 'Set a password' })).toBeTruthy()
    expect(screen.getByText('Why is this necessary?')).toBeTruthy()
    fireEvent.click(screen.getByRole('button', { name: 'Back up to Google Drive' }))
    expect(await screen.findByRole('heading', { name: 'Back up with Google Drive' })).toBeTruthy()
    fireEvent.click(screen.getByRole('button', { name: 'Continue with Google Drive' }))
    // The PKCE challenge is hashed with crypto.subtle: real work, so wait for the call itself.
    await leaving
    expect(assign).toHaveBeenCalledOnce()
    expect(calls.some((url) => url.endsWith('/api/v1/recovery/oauth/init'))).toBe(true)
    // Nothing is created before the user is back from the provider.
    expect(enclaveCalls).toEqual([])
    const pending = JSON.parse(sessionStorage.getItem(`latchkey:${APP_ID}:cloud-recovery`) ?? '{}')
    expect(pending).toMatchObject({
      provider: 'google-drive',
      action: 'create-wallet',
      chains: ['ethereum', 'solana'],
      isNewUser: true,
    })
    assign.mockRestore()
    sessionStorage.clear()
  })

  it('asks for the password of an existing wallet on a new device instead of logging out', async () => {
    const events: Array<{ event: string; data: unknown }> = []
    const { client } = setup(async (event, data) => {
      events.push({ event, data })
      if (event === 'latchkey:wallets:connect')
        return events.some((e) => e.event === 'latchkey:wallets:recover')
          ? { entropy_id: ETH0, status: 'ready', recovery_method: 'user-passcode' }
          : { entropy_id: ETH0, status: 'needs-recovery', recovery_method: 'user-passcode' }
      return { user: userWire(['ethereum', 'solana']) }
    })
    const user = client.session.getState().user
    if (!user) throw new Error('no user')
    client.session.setUser({
      ...user,
      linkedAccounts: [
        {
          type: 'wallet',
          address: ETH0,
          chainType: 'ethereum',
          walletIndex: 0,
          walletClientType: 'latchkey',
          connectorType: 'embedded',
          imported: false,
          delegated: false,
          recoveryMethod: 'user-passcode',
          entropyId: ETH0,
          verifiedAt: new Date(1000),
          firstVerifiedAt: new Date(1000),
          latestVerifiedAt: new Date(1000),
        },
      ],
    } as never)
    const onFailed = vi.fn()
    const onDone = vi.fn()
    render(
      <WalletCreationScreen
        client={client}
        chains={['solana']}
        isNewUser={false}
        appName="Demo"
        onDone={onDone}
        onFailed={onFailed}
        onClose={vi.fn()}
      />,
    )
    fireEvent.change(await screen.findByLabelText('Password'), { target: { value: 'hunter22' } })
    fireEvent.click(screen.getByRole('button', { name: 'Recover your account' }))
    expect(await screen.findByRole('heading', { name: 'All set!' })).toBeTruthy()
    expect(onFailed).not.toHaveBeenCalled()
    expect(events.map((e) => e.event)).toEqual([
      'latchkey:wallets:connect',
      'latchkey:wallets:connect',
      'latchkey:wallets:recover',
      'latchkey:wallets:add',
    ])
    expect(events[2]?.data).toMatchObject({ entropy_id: ETH0, password: 'hunter22' })
    expect(client.session.getState().status).toBe('authenticated')
  })
})
