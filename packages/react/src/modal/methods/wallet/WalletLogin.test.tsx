import { type LatchkeyClient, LatchkeyError, toUser, type User } from '@latchkey/core'
import {
  type ConnectedEthereumExternalWallet,
  type ConnectedExternalWallet,
  type ConnectedSolanaExternalWallet,
  type ConnectHooks,
  type ExternalWallets,
  type ExternalWalletsState,
  KNOWN_WALLETS,
  mobileLink,
  signInWithEthereum,
  signInWithSolana,
  type WalletChainType,
  type WalletOption,
  type WalletSignInStatus,
} from '@latchkey/core/external'
import {
  MOBILE_REDIRECT_STILL_HERE_MS,
  MODAL_OPEN_DELAY_MS,
  SUCCESS_CLOSE_DELAY_MS,
  WALLET_RETRY_LIMIT,
} from '@latchkey/protocol/constants'
import type { ChainType } from '@latchkey/protocol/schemas'
import { act, cleanup, fireEvent, render, screen, within } from '@testing-library/react'
import { mainnet } from 'viem/chains'
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest'
import { useLatchkey } from '../../../hooks/useLatchkey.ts'
import { type UseLoginParameters, useLogin } from '../../../hooks/useLogin.ts'
import type { LatchkeyInstance } from '../../../store.ts'
import { wireUser } from '../../../test/fake-server.ts'
import { renderWithProvider } from '../../../test/render.tsx'
import WalletLogin, { chainTypeFor, type WalletLoginProps } from './WalletLogin.tsx'

/** The codes of the errors an `onError` mock was called with. */
const errorCodes = (fn: { mock: { calls: unknown[][] } }) =>
  fn.mock.calls.map(([error]) => (error as { code: string }).code)

// External wallet login, link and connect-only in the modal (spec 01 §2
// "Wallet connecting", §4 "Wallet connection"): the wallet list, then
// connect → switch chain → sign → verify, at most 2 retries, the install,
// mobile-redirect, WalletConnect QR and Phantom Ledger screens. The manager
// is a fake; the SIWE / SIWS sign-ins are mocked.

vi.mock('@latchkey/core/external', async (importOriginal) => ({
  ...(await importOriginal<typeof import('@latchkey/core/external')>()),
  signInWithEthereum: vi.fn(),
  signInWithSolana: vi.fn(),
}))

const siwe = vi.mocked(signInWithEthereum)
const siws = vi.mocked(signInWithSolana)

const USER = { id: 'did:latchkey:user1' } as User

// --- Wallet rows ------------------------------------------------------------------

const METAMASK: WalletOption = {
  key: 'eip6963:mm-uuid',
  id: 'metamask',
  name: 'MetaMask',
  icon: null,
  chainTypes: ['ethereum'],
  installed: true,
  kind: 'injected',
}
const PHANTOM: WalletOption = {
  ...KNOWN_WALLETS.phantom,
  key: 'eip6963:phantom-uuid',
  id: 'phantom',
  name: 'Phantom',
  icon: null,
  chainTypes: ['ethereum', 'solana'],
  installed: true,
  kind: 'injected',
}
const SOLFLARE: WalletOption = {
  key: 'standard:Solflare',
  id: 'solflare',
  name: 'Solflare',
  icon: null,
  chainTypes: ['solana'],
  installed: true,
  kind: 'wallet_standard',
}
const WALLET_CONNECT: WalletOption = {
  key: 'wallet_connect',
  id: 'wallet_connect',
  name: 'WalletConnect',
  icon: null,
  chainTypes: ['ethereum'],
  installed: true,
  kind: 'wallet_connect',
}
const RAINBOW: WalletOption = {
  ...KNOWN_WALLETS.rainbow,
  key: 'install:rainbow',
  id: 'rainbow',
  name: 'Rainbow',
  icon: null,
  chainTypes: ['ethereum'],
  installed: false,
  kind: 'not_installed',
}
const OPTIONS = [METAMASK, PHANTOM, SOLFLARE, WALLET_CONNECT, RAINBOW]

// --- Connected wallets ------------------------------------------------------------

const ethWallet = (option: WalletOption = METAMASK): ConnectedEthereumExternalWallet => ({
  type: 'ethereum',
  address: '0x1111111111111111111111111111111111111111',
  chainId: 'eip155:1',
  connectedAt: 1,
  walletClientType: option.id,
  connectorType: 'injected',
  imported: false,
  meta: { name: option.name, icon: null, id: option.key },
  getEthereumProvider: () => ({ request: async () => null }),
  switchChain: async () => undefined,
  disconnect: async () => undefined,
})
const solWallet = (
  option: WalletOption = PHANTOM,
  { ledgerCapable = true } = {},
): ConnectedSolanaExternalWallet => ({
  type: 'solana',
  address: 'So1ana1111111111111111111111111111111111111',
  chainId: null,
  connectedAt: 1,
  walletClientType: option.id,
  connectorType: 'solana_adapter',
  imported: false,
  meta: { name: option.name, icon: null, id: option.key },
  signMessage: async () => new Uint8Array(64),
  ...(ledgerCapable ? { signTransaction: async (tx: Uint8Array) => tx } : {}),
  disconnect: async () => undefined,
})

// --- A fake manager and instance ------------------------------------------------------

type Connect = (
  key: string,
  chainType: ChainType,
  hooks?: ConnectHooks,
) => Promise<ConnectedExternalWallet>

function fakeManager(options: WalletOption[], recent: string | null = null) {
  const state: ExternalWalletsState = { ethereum: [], solana: [], wallets: [], connectors: {} }
  const connect = vi.fn<Connect>()
  const manager = {
    getState: () => state,
    subscribe: vi.fn(() => () => undefined),
    options: vi.fn(() => options),
    connect,
    restore: vi.fn(async () => undefined),
    recent: vi.fn(() =>
      recent ? { walletClientType: recent, chainType: 'ethereum' as ChainType } : null,
    ),
    chains: [mainnet],
    defaultChain: mainnet,
    destroy: vi.fn(),
  } satisfies ExternalWallets
  return manager
}

interface SetupOptions extends Partial<Omit<WalletLoginProps, 'instance'>> {
  options?: WalletOption[]
  recent?: string | null
  /** The manager is not loaded yet: `load()` returns this. */
  load?: () => Promise<ExternalWallets>
}

function setup(setupOptions: SetupOptions = {}) {
  const { options = OPTIONS, recent = null, load, ...props } = setupOptions
  const manager = fakeManager(options, recent)
  const client = { appId: 'testappaaaaaaaaaaaaaaaaaa' } as unknown as LatchkeyClient
  const instance = {
    client,
    externalWallets: {
      peek: () => (load ? null : manager),
      load: vi.fn(load ?? (async () => manager)),
      getState: () => manager.getState(),
      subscribe: () => () => undefined,
      restore: vi.fn(),
    },
  } as unknown as LatchkeyInstance
  const callbacks = {
    onDone: vi.fn<WalletLoginProps['onDone']>(),
    onConnected: vi.fn<WalletLoginProps['onConnected']>(),
    onError: vi.fn<WalletLoginProps['onError']>(),
    onBack: vi.fn(),
  }
  const view = render(
    <WalletLogin
      instance={instance}
      mode="login"
      disableSignup={false}
      walletChainType="ethereum-and-solana"
      walletList={null}
      {...callbacks}
      {...props}
    />,
  )
  return { ...view, ...callbacks, manager, client, instance }
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

const heading = () => screen.getByRole('heading').textContent
const flush = () => act(async () => {})
/** Under fake timers: lets pending promises settle and React commit, then `ms` pass. */
const elapse = (ms = 0) => act(() => vi.advanceTimersByTimeAsync(ms))
const pick = (name: string) => fireEvent.click(screen.getByRole('button', { name }))
/** A wallet's EIP-1193 user rejection, as a wallet throws it. */
const rejection = () => Object.assign(new Error('User rejected the request.'), { code: 4001 })

beforeEach(() => {
  siwe.mockReset()
  siws.mockReset()
  siwe.mockResolvedValue({ user: USER, isNewUser: true })
  siws.mockResolvedValue({ user: USER, isNewUser: true })
})
afterEach(() => {
  cleanup()
  vi.useRealTimers()
  vi.restoreAllMocks()
  vi.unstubAllGlobals()
})

describe('chainTypeFor', () => {
  it('an Ethereum-only list connects on Ethereum, a Solana-only list on Solana', () => {
    expect(chainTypeFor(PHANTOM, 'ethereum-only')).toBe('ethereum')
    expect(chainTypeFor(PHANTOM, 'solana-only')).toBe('solana')
    expect(chainTypeFor(METAMASK, 'ethereum-only')).toBe('ethereum')
    expect(chainTypeFor(SOLFLARE, 'solana-only')).toBe('solana')
  })

  it("on both chains, Phantom prefers Solana (its listing's first chain)", () => {
    expect(chainTypeFor(PHANTOM, 'ethereum-and-solana')).toBe('solana')
    expect(
      chainTypeFor({ ...PHANTOM, chainTypes: ['solana', 'ethereum'] }, 'ethereum-and-solana'),
    ).toBe('solana')
  })

  it("on both chains, falls back to the row's first chain", () => {
    expect(chainTypeFor(METAMASK, 'ethereum-and-solana')).toBe('ethereum')
    expect(chainTypeFor(SOLFLARE, 'ethereum-and-solana')).toBe('solana')
    // Phantom detected only as an EVM wallet: its preferred chain is not offered.
    expect(chainTypeFor({ ...PHANTOM, chainTypes: ['ethereum'] }, 'ethereum-and-solana')).toBe(
      'ethereum',
    )
    expect(chainTypeFor({ ...SOLFLARE, chainTypes: [] }, 'ethereum-and-solana')).toBe('ethereum')
  })
})

describe('WalletLogin', () => {
  describe('the list', () => {
    it('titles the list per mode and lists the manager options for the chain type', () => {
      const { manager } = setup({ walletChainType: 'solana-only' })
      expect(heading()).toBe('Log in with a wallet')
      expect(manager.options).toHaveBeenCalledWith({ walletChainType: 'solana-only' })
      expect(screen.getByRole('button', { name: 'MetaMask' })).toBeTruthy()
      expect(screen.getByRole('button', { name: 'Rainbow' })).toBeTruthy()
      cleanup()

      setup({ mode: 'link' })
      expect(heading()).toBe('Link a wallet')
      cleanup()

      setup({ mode: 'connect' })
      expect(heading()).toBe('Connect a wallet')
      // Connect-only: the collapsed list (3 rows + 'More wallets').
      expect(screen.getByRole('button', { name: 'More wallets' })).toBeTruthy()
    })

    it("passes the app's wallet list and marks the recent wallet", () => {
      const { manager } = setup({ walletList: ['metamask', 'phantom'], recent: 'phantom' })
      expect(manager.options).toHaveBeenCalledWith({
        walletChainType: 'ethereum-and-solana',
        walletList: ['metamask', 'phantom'],
      })
      expect(
        within(screen.getByRole('button', { name: 'Phantom' })).getByText('Recent'),
      ).toBeTruthy()
      expect(screen.getAllByText('Recent')).toHaveLength(1)
    })

    it('Back on the list leaves the method', () => {
      const { onBack } = setup()
      fireEvent.click(screen.getByRole('button', { name: 'Back' }))
      expect(onBack).toHaveBeenCalledTimes(1)
    })

    it('waits for the manager to load', async () => {
      const loaded = deferred<ExternalWallets>()
      const { instance } = setup({ load: () => loaded.promise })
      expect(heading()).toBe('Log in with a wallet')
      expect(screen.getByRole('status', { name: 'Looking for wallets' })).toBeTruthy()
      expect(instance.externalWallets.load).toHaveBeenCalledTimes(1)
      await act(async () => loaded.resolve(fakeManager(OPTIONS)))
      expect(screen.getByRole('button', { name: 'MetaMask' })).toBeTruthy()
    })

    it('shows the error screen when the wallet code fails to load', async () => {
      setup({ load: async () => Promise.reject(new LatchkeyError('NETWORK_ERROR')) })
      await flush()
      expect(heading()).toBe(new LatchkeyError('NETWORK_ERROR').userMessage.title)
    })
  })

  describe('picking a row', () => {
    it.each<[WalletOption, WalletChainType, ChainType]>([
      [METAMASK, 'ethereum-only', 'ethereum'],
      [PHANTOM, 'ethereum-only', 'ethereum'],
      [PHANTOM, 'solana-only', 'solana'],
      [PHANTOM, 'ethereum-and-solana', 'solana'],
      [METAMASK, 'ethereum-and-solana', 'ethereum'],
      [SOLFLARE, 'ethereum-and-solana', 'solana'],
    ])('connects %s on a %s list on %s', (option, walletChainType, chainType) => {
      const { manager } = setup({ walletChainType })
      manager.connect.mockReturnValue(new Promise(() => undefined))
      pick(option.name)
      expect(manager.connect).toHaveBeenCalledTimes(1)
      expect(manager.connect).toHaveBeenCalledWith(option.key, chainType, {
        onDisplayUri: expect.any(Function),
      })
    })

    it("'Waiting for {wallet}' → 'Switching networks' → 'Sign to verify' → 'Signing' → done", async () => {
      const { manager, client, onDone, onError } = setup()
      const connected = deferred<ConnectedExternalWallet>()
      manager.connect.mockReturnValue(connected.promise)
      const signed = deferred<{ user: User; isNewUser: boolean }>()
      siwe.mockReturnValue(signed.promise)

      pick('MetaMask')
      expect(heading()).toBe('Waiting for MetaMask')
      expect(screen.getByText('Connect your wallet to continue.')).toBeTruthy()
      expect(screen.getByRole('status', { name: 'Waiting for MetaMask' })).toBeTruthy()

      const wallet = ethWallet()
      await act(async () => connected.resolve(wallet))
      expect(siwe).toHaveBeenCalledTimes(1)
      expect(siws).not.toHaveBeenCalled()
      const [siweClient, siweWallet, siweOptions] = siwe.mock.calls[0] ?? []
      expect(siweClient).toBe(client)
      expect(siweWallet).toBe(wallet)
      expect(siweOptions).toMatchObject({
        intent: 'login',
        mode: 'login-or-sign-up',
        chains: [mainnet],
        defaultChain: mainnet,
      })
      const onStatus = siweOptions?.onStatus as (status: WalletSignInStatus) => void
      expect(heading()).toBe('Waiting for MetaMask')

      act(() => onStatus('switching-chain'))
      expect(heading()).toBe('Switching networks')
      expect(screen.getByText('Approve the network switch in MetaMask.')).toBeTruthy()
      act(() => onStatus('awaiting-signature'))
      expect(heading()).toBe('Sign to verify')
      expect(
        screen.getByText('Sign the message in MetaMask to verify it belongs to you.'),
      ).toBeTruthy()
      act(() => onStatus('verifying'))
      expect(heading()).toBe('Signing')
      expect(screen.getByText('Verifying your signature.')).toBeTruthy()
      expect(onDone).not.toHaveBeenCalled()

      await act(async () => signed.resolve({ user: USER, isNewUser: true }))
      expect(onDone).toHaveBeenCalledTimes(1)
      expect(onDone).toHaveBeenCalledWith({ user: USER, isNewUser: true, walletName: 'MetaMask' })
      expect(onError).not.toHaveBeenCalled()
    })

    it('signs up nobody with disableSignup, and links with mode link', async () => {
      const first = setup({ disableSignup: true })
      first.manager.connect.mockResolvedValue(ethWallet())
      pick('MetaMask')
      await flush()
      expect(siwe.mock.calls[0]?.[2]).toMatchObject({ intent: 'login', mode: 'no-signup' })
      expect(first.onDone).toHaveBeenCalledWith({
        user: USER,
        isNewUser: true,
        walletName: 'MetaMask',
      })
      cleanup()

      siwe.mockResolvedValue({ user: USER, isNewUser: false })
      const second = setup({ mode: 'link' })
      second.manager.connect.mockResolvedValue(ethWallet())
      pick('MetaMask')
      await flush()
      expect(siwe.mock.calls[1]?.[2]).toMatchObject({ intent: 'link' })
      expect(second.onDone).toHaveBeenCalledWith({
        user: USER,
        isNewUser: false,
        walletName: 'MetaMask',
      })
    })

    it('signs in a Solana wallet with SIWS (a plain message)', async () => {
      const { manager, client, onDone } = setup({ walletChainType: 'solana-only' })
      const wallet = solWallet(SOLFLARE)
      manager.connect.mockResolvedValue(wallet)
      pick('Solflare')
      await flush()
      expect(siwe).not.toHaveBeenCalled()
      expect(siws).toHaveBeenCalledTimes(1)
      expect(siws.mock.calls[0]?.[0]).toBe(client)
      expect(siws.mock.calls[0]?.[1]).toBe(wallet)
      expect(siws.mock.calls[0]?.[2]).toMatchObject({
        intent: 'login',
        mode: 'login-or-sign-up',
        messageType: 'plain',
      })
      // No Ledger question for a wallet other than Phantom.
      expect(screen.queryByText('Continue with Ledger')).toBeNull()
      expect(onDone).toHaveBeenCalledWith({ user: USER, isNewUser: true, walletName: 'Solflare' })
    })

    it('a wallet given up on (Back while waiting) is ignored when it answers late', async () => {
      const { manager, onDone, onError } = setup()
      const connected = deferred<ConnectedExternalWallet>()
      manager.connect.mockReturnValue(connected.promise)
      pick('MetaMask')
      expect(heading()).toBe('Waiting for MetaMask')
      fireEvent.click(screen.getByRole('button', { name: 'Back' }))
      expect(heading()).toBe('Log in with a wallet')

      await act(async () => connected.resolve(ethWallet()))
      expect(siwe).not.toHaveBeenCalled()
      expect(onDone).not.toHaveBeenCalled()
      expect(heading()).toBe('Log in with a wallet')

      // Likewise a late failure.
      const again = deferred<ConnectedExternalWallet>()
      manager.connect.mockReturnValue(again.promise)
      pick('MetaMask')
      fireEvent.click(screen.getByRole('button', { name: 'Back' }))
      await act(async () => again.reject(rejection()))
      expect(onError).not.toHaveBeenCalled()
      expect(heading()).toBe('Log in with a wallet')
    })
  })

  describe('failures and retries', () => {
    it("a 4001 rejection reads 'You rejected the request' with Retry and 'Use a different wallet'", async () => {
      const { manager, onError, onDone } = setup()
      manager.connect.mockRejectedValue(rejection())
      pick('MetaMask')
      await flush()
      expect(heading()).toBe('You rejected the request')
      expect(screen.getByRole('alert').textContent).toBe('You rejected the request')
      expect(screen.getByRole('button', { name: 'Retry' })).toBeTruthy()
      expect(screen.getByRole('button', { name: 'Use a different wallet' })).toBeTruthy()
      expect(errorCodes(onError)).toContain('WALLET_USER_REJECTED')
      expect(onDone).not.toHaveBeenCalled()
      expect(siwe).not.toHaveBeenCalled()
    })

    it(`allows ${WALLET_RETRY_LIMIT} retries, then only 'Use a different wallet'`, async () => {
      const { manager, onError } = setup()
      manager.connect.mockRejectedValue(new LatchkeyError('WALLET_USER_REJECTED'))
      pick('MetaMask')
      await flush()
      expect(heading()).toBe('You rejected the request')

      fireEvent.click(screen.getByRole('button', { name: 'Retry' }))
      expect(heading()).toBe('Waiting for MetaMask')
      await flush()
      expect(manager.connect).toHaveBeenCalledTimes(2)
      expect(manager.connect).toHaveBeenLastCalledWith(METAMASK.key, 'ethereum', expect.anything())
      expect(heading()).toBe('You rejected the request')

      fireEvent.click(screen.getByRole('button', { name: 'Retry' }))
      await flush()
      expect(manager.connect).toHaveBeenCalledTimes(3)
      expect(heading()).toBe('Unable to connect wallet')
      expect(screen.getByRole('alert').textContent).toBe('Unable to connect wallet')
      expect(screen.queryByRole('button', { name: 'Retry' })).toBeNull()
      expect(screen.getByRole('button', { name: 'Use a different wallet' })).toBeTruthy()
      expect(onError).toHaveBeenCalledTimes(3)
    })

    it("'Use a different wallet' returns to the list and resets the retries", async () => {
      const { manager } = setup()
      manager.connect.mockRejectedValue(rejection())
      pick('MetaMask')
      await flush()
      fireEvent.click(screen.getByRole('button', { name: 'Retry' }))
      await flush()
      fireEvent.click(screen.getByRole('button', { name: 'Retry' }))
      await flush()
      expect(heading()).toBe('Unable to connect wallet')

      fireEvent.click(screen.getByRole('button', { name: 'Use a different wallet' }))
      expect(heading()).toBe('Log in with a wallet')

      pick('Phantom')
      await flush()
      expect(manager.connect).toHaveBeenLastCalledWith(PHANTOM.key, 'solana', expect.anything())
      expect(heading()).toBe('You rejected the request')
      expect(screen.getByRole('button', { name: 'Retry' })).toBeTruthy()
      fireEvent.click(screen.getByRole('button', { name: 'Retry' }))
      await flush()
      expect(screen.getByRole('button', { name: 'Retry' })).toBeTruthy()
    })

    it('Back on the error screen also returns to the list', async () => {
      const { manager, onBack } = setup()
      manager.connect.mockRejectedValue(rejection())
      pick('MetaMask')
      await flush()
      fireEvent.click(screen.getByRole('button', { name: 'Back' }))
      expect(heading()).toBe('Log in with a wallet')
      expect(onBack).not.toHaveBeenCalled()
    })

    it('a sign-in failure (not the connection) shows its message; Retry reconnects and signs again', async () => {
      const { manager, onDone } = setup()
      manager.connect.mockResolvedValue(ethWallet())
      siwe.mockRejectedValueOnce(new LatchkeyError('WALLET_LOGIN_FAILED'))
      pick('MetaMask')
      await flush()
      expect(heading()).toBe('Could not log in with wallet')
      fireEvent.click(screen.getByRole('button', { name: 'Retry' }))
      await flush()
      expect(manager.connect).toHaveBeenCalledTimes(2)
      expect(siwe).toHaveBeenCalledTimes(2)
      expect(onDone).toHaveBeenCalledWith({ user: USER, isNewUser: true, walletName: 'MetaMask' })
    })

    it('a non-retryable failure (address taken) offers no Retry', async () => {
      const { manager, onError } = setup()
      manager.connect.mockResolvedValue(ethWallet())
      siwe.mockRejectedValue(new LatchkeyError('WALLET_ADDRESS_TAKEN'))
      pick('MetaMask')
      await flush()
      expect(heading()).toBe('User already exists for this address')
      expect(screen.getByText('Try another address!')).toBeTruthy()
      expect(screen.queryByRole('button', { name: 'Retry' })).toBeNull()
      expect(screen.getByRole('button', { name: 'Use a different wallet' })).toBeTruthy()
      expect(errorCodes(onError)).toContain('WALLET_ADDRESS_TAKEN')
    })

    it("Phantom with multichain off reads 'Could not connect with wallet' with Try again and Cancel", async () => {
      const phantomSolanaOnly: WalletOption = {
        ...PHANTOM,
        key: 'standard:Phantom',
        kind: 'wallet_standard',
        chainTypes: ['solana', 'ethereum'],
      }
      const { manager, onError } = setup({
        options: [phantomSolanaOnly],
        walletChainType: 'ethereum-only',
      })
      manager.connect.mockRejectedValue(new LatchkeyError('WALLET_MULTICHAIN_DISABLED'))
      pick('Phantom')
      await flush()
      expect(manager.connect).toHaveBeenCalledWith(
        'standard:Phantom',
        'ethereum',
        expect.anything(),
      )
      expect(heading()).toBe('Could not connect with wallet')
      expect(
        screen.getByText("Turn on Ethereum in your wallet's settings, then try again."),
      ).toBeTruthy()
      expect(screen.queryByRole('button', { name: 'Retry' })).toBeNull()
      expect(screen.queryByRole('button', { name: 'Use a different wallet' })).toBeNull()
      expect(errorCodes(onError)).toEqual(['WALLET_MULTICHAIN_DISABLED'])

      fireEvent.click(screen.getByRole('button', { name: 'Try again' }))
      await flush()
      expect(manager.connect).toHaveBeenCalledTimes(2)
      expect(heading()).toBe('Could not connect with wallet')
      fireEvent.click(screen.getByRole('button', { name: 'Cancel' }))
      expect(heading()).toBe('Log in with a wallet')
    })

    it("Try again counts as a retry: after two, 'Unable to connect wallet'", async () => {
      const { manager } = setup({ walletChainType: 'ethereum-only' })
      manager.connect.mockRejectedValue(new LatchkeyError('WALLET_MULTICHAIN_DISABLED'))
      pick('Phantom')
      await flush()
      fireEvent.click(screen.getByRole('button', { name: 'Try again' }))
      await flush()
      fireEvent.click(screen.getByRole('button', { name: 'Try again' }))
      await flush()
      expect(heading()).toBe('Unable to connect wallet')
      expect(screen.queryByRole('button', { name: 'Try again' })).toBeNull()
      expect(screen.getByRole('button', { name: 'Use a different wallet' })).toBeTruthy()
    })

    it("a wallet that does not answer reads 'Wallet request timed out' with Retry", async () => {
      const { manager } = setup()
      manager.connect.mockRejectedValue(
        new LatchkeyError('WALLET_REQUEST_TIMEOUT', 'Wallet timeout'),
      )
      pick('MetaMask')
      await flush()
      expect(heading()).toBe('Wallet request timed out')
      expect(screen.getByText('Please try connecting again.')).toBeTruthy()
      expect(screen.getByRole('button', { name: 'Retry' })).toBeTruthy()
    })

    it('USER_DOES_NOT_EXIST goes to the flow (account not found), not the error view', async () => {
      const { manager, onError, onDone } = setup({ disableSignup: true })
      manager.connect.mockResolvedValue(ethWallet())
      siwe.mockRejectedValue(new LatchkeyError('USER_DOES_NOT_EXIST'))
      pick('MetaMask')
      await flush()
      expect(onError).toHaveBeenCalledTimes(1)
      expect(errorCodes(onError)).toContain('USER_DOES_NOT_EXIST')
      expect(onDone).not.toHaveBeenCalled()
      expect(screen.queryByRole('alert')).toBeNull()
      expect(screen.queryByRole('button', { name: 'Use a different wallet' })).toBeNull()
      expect(screen.queryByText('Account not found')).toBeNull()
    })
  })

  describe('connect-only', () => {
    it("shows 'Successfully connected with {wallet}' and reports the wallet 1.4 s later, without signing", async () => {
      vi.useFakeTimers()
      const { manager, onConnected, onDone } = setup({ mode: 'connect' })
      const wallet = ethWallet()
      manager.connect.mockResolvedValue(wallet)
      pick('MetaMask')
      await flush()
      expect(heading()).toBe('Successfully connected with MetaMask')
      expect(screen.getByRole('status').textContent).toBe('Successfully connected with MetaMask')
      expect(siwe).not.toHaveBeenCalled()
      expect(siws).not.toHaveBeenCalled()

      await act(() => vi.advanceTimersByTimeAsync(SUCCESS_CLOSE_DELAY_MS - 1))
      expect(onConnected).not.toHaveBeenCalled()
      await act(() => vi.advanceTimersByTimeAsync(1))
      expect(onConnected).toHaveBeenCalledTimes(1)
      expect(onConnected).toHaveBeenCalledWith(wallet)
      expect(onDone).not.toHaveBeenCalled()
    })

    it('connects a Phantom Solana wallet without the Ledger question', async () => {
      vi.useFakeTimers()
      const { manager, onConnected } = setup({ mode: 'connect', walletChainType: 'solana-only' })
      const wallet = solWallet(PHANTOM)
      manager.connect.mockResolvedValue(wallet)
      pick('Phantom')
      await flush()
      expect(heading()).toBe('Successfully connected with Phantom')
      await act(() => vi.advanceTimersByTimeAsync(SUCCESS_CLOSE_DELAY_MS))
      expect(onConnected).toHaveBeenCalledWith(wallet)
    })

    it('does not report the wallet once unmounted (the modal closed)', async () => {
      vi.useFakeTimers()
      const { manager, onConnected, unmount } = setup({ mode: 'connect' })
      manager.connect.mockResolvedValue(ethWallet())
      pick('MetaMask')
      await flush()
      unmount()
      await act(() => vi.advanceTimersByTimeAsync(SUCCESS_CLOSE_DELAY_MS * 2))
      expect(onConnected).not.toHaveBeenCalled()
    })
  })

  describe('a wallet that is not installed', () => {
    it("on a desktop: 'Install {wallet}' with the steps; Back returns to the list", () => {
      const { manager } = setup()
      pick('Rainbow')
      expect(manager.connect).not.toHaveBeenCalled()
      expect(heading()).toBe('Install Rainbow')
      expect(screen.getByText(/Install the Rainbow browser extension/)).toBeTruthy()
      const link = screen.getByRole('link', { name: 'rainbow.me' })
      expect(link.getAttribute('href')).toBe(RAINBOW.extensionUrl)
      expect(link.getAttribute('target')).toBe('_blank')
      expect(
        screen.getByText('Store your recovery phrase somewhere safe. Never share it.'),
      ).toBeTruthy()
      expect(screen.getByRole('button', { name: 'Reload the page' })).toBeTruthy()
      fireEvent.click(screen.getByRole('button', { name: 'Back' }))
      expect(heading()).toBe('Log in with a wallet')
    })

    it("on a phone: 'Open {wallet}', Continue, then 'Still here?' after 1 s with 'Go to App Store'", async () => {
      vi.spyOn(navigator, 'userAgent', 'get').mockReturnValue(
        'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 Mobile/15E148',
      )
      // The test page does not follow links.
      const stopNavigation = (event: Event) => event.preventDefault()
      window.addEventListener('click', stopNavigation)
      try {
        vi.useFakeTimers()
        setup()
        pick('Rainbow')
        expect(heading()).toBe('Open Rainbow')
        expect(screen.getByText('Continue in the Rainbow app to connect.')).toBeTruthy()
        const cont = screen.getByRole('link', { name: 'Continue' })
        // The page opens in the wallet's browser with connector hints naming this wallet.
        expect(cont.getAttribute('href')).toBe(
          mobileLink(
            RAINBOW.mobileBrowseUrl as string,
            `${location.href}${location.search ? '&' : '?'}latchkey_connector=injected&latchkey_wallet_client=rainbow`,
          ),
        )
        expect(screen.queryByRole('link', { name: 'Go to App Store' })).toBeNull()

        // Nothing happens until Continue is clicked.
        await act(() => vi.advanceTimersByTimeAsync(MOBILE_REDIRECT_STILL_HERE_MS * 2))
        expect(heading()).toBe('Open Rainbow')

        fireEvent.click(cont)
        await act(() => vi.advanceTimersByTimeAsync(MOBILE_REDIRECT_STILL_HERE_MS - 1))
        expect(heading()).toBe('Open Rainbow')
        await act(() => vi.advanceTimersByTimeAsync(1))
        expect(heading()).toBe('Still here?')
        expect(screen.getByText('If Rainbow did not open, install it first.')).toBeTruthy()
        const store = screen.getByRole('link', { name: 'Go to App Store' })
        expect(store.getAttribute('href')).toBe(RAINBOW.appStoreUrl)
        expect(screen.getByRole('link', { name: 'Continue' })).toBeTruthy()
      } finally {
        window.removeEventListener('click', stopNavigation)
      }
    })

    it('on a phone, a wallet without a mobile link gets the install screen', () => {
      vi.spyOn(navigator, 'userAgent', 'get').mockReturnValue(
        'Mozilla/5.0 (Linux; Android 14) Mobile',
      )
      const bare: WalletOption = { ...RAINBOW, mobileBrowseUrl: undefined }
      setup({ options: [bare] })
      pick('Rainbow')
      expect(heading()).toBe('Install Rainbow')
    })
  })

  describe('WalletConnect', () => {
    const URI =
      'wc:7f6e504bfad60b485450578e05678ed3e8e8c4751d3c6160be17160d63ec90f9@2?relay-protocol=irn&symKey=587d5484ce2a2a6ee3ba1962fdd7e8588e06200c46823bd18fbd67def96ad303'

    it("draws the pairing URI as a QR code with 'Open in app' and 'Copy link'", async () => {
      const writeText = vi.spyOn(navigator.clipboard, 'writeText').mockResolvedValue(undefined)
      const { manager } = setup({ walletChainType: 'ethereum-only' })
      const connected = deferred<ConnectedExternalWallet>()
      let hooks: ConnectHooks | undefined
      manager.connect.mockImplementation(async (_key, _chain, h) => {
        hooks = h
        return connected.promise
      })
      pick('WalletConnect')
      expect(manager.connect).toHaveBeenCalledWith('wallet_connect', 'ethereum', expect.anything())
      expect(heading()).toBe('Waiting for WalletConnect')

      act(() => hooks?.onDisplayUri?.(URI))
      expect(heading()).toBe('Scan with WalletConnect')
      const qr = screen.getByRole('img', { name: 'WalletConnect QR code' })
      expect(qr.getAttribute('data-qr-value')).toBe(URI)
      expect(screen.getByRole('link', { name: 'Open in app' }).getAttribute('href')).toBe(URI)

      fireEvent.click(screen.getByRole('button', { name: 'Copy link' }))
      expect(writeText).toHaveBeenCalledWith(URI)
      expect(await screen.findByRole('button', { name: 'Copied' })).toBeTruthy()

      // The wallet approved: the QR code gives way to the sign-in.
      const signed = deferred<{ user: User; isNewUser: boolean }>()
      siwe.mockReturnValue(signed.promise)
      await act(async () => connected.resolve(ethWallet(WALLET_CONNECT)))
      expect(screen.queryByRole('img', { name: 'WalletConnect QR code' })).toBeNull()
      expect(heading()).toBe('Waiting for WalletConnect')
      const onStatus = siwe.mock.calls[0]?.[2].onStatus as (s: WalletSignInStatus) => void
      act(() => onStatus('awaiting-signature'))
      expect(heading()).toBe('Sign to verify')
    })

    it('Back on the QR screen returns to the list', () => {
      const { manager } = setup()
      manager.connect.mockImplementation((_key, _chain, h) => {
        h?.onDisplayUri?.(URI)
        return new Promise(() => undefined)
      })
      pick('WalletConnect')
      expect(heading()).toBe('Scan with WalletConnect')
      fireEvent.click(screen.getByRole('button', { name: 'Back' }))
      expect(heading()).toBe('Log in with a wallet')
    })

    it('a failure after the QR code shows the error, not the QR code', async () => {
      const { manager } = setup()
      manager.connect.mockImplementation(async (_key, _chain, h) => {
        h?.onDisplayUri?.(URI)
        throw rejection()
      })
      pick('WalletConnect')
      await flush()
      expect(heading()).toBe('You rejected the request')
      expect(screen.queryByRole('img', { name: 'WalletConnect QR code' })).toBeNull()
    })
  })

  describe('Phantom on Solana (Ledger)', () => {
    it.each([
      ['Continue with Ledger', 'transaction'],
      ['Continue without Ledger', 'plain'],
    ])("asks about a Ledger; '%s' signs a %s message", async (choice, messageType) => {
      const { manager, onDone } = setup()
      const wallet = solWallet(PHANTOM)
      manager.connect.mockResolvedValue(wallet)
      pick('Phantom')
      await flush()
      expect(manager.connect).toHaveBeenCalledWith(PHANTOM.key, 'solana', expect.anything())
      expect(heading()).toBe('Are you using a Ledger?')
      expect(screen.getByRole('button', { name: 'Continue with Ledger' })).toBeTruthy()
      expect(screen.getByRole('button', { name: 'Continue without Ledger' })).toBeTruthy()
      expect(siws).not.toHaveBeenCalled()

      fireEvent.click(screen.getByRole('button', { name: choice }))
      await flush()
      expect(manager.connect).toHaveBeenLastCalledWith(PHANTOM.key, 'solana', expect.anything())
      expect(siws).toHaveBeenCalledTimes(1)
      expect(siws.mock.calls[0]?.[1]).toBe(wallet)
      expect(siws.mock.calls[0]?.[2]).toMatchObject({ messageType })
      // Asked once: the choice is not asked again.
      expect(screen.queryByRole('heading', { name: 'Are you using a Ledger?' })).toBeNull()
      expect(onDone).toHaveBeenCalledWith({ user: USER, isNewUser: true, walletName: 'Phantom' })
    })

    it('Retry after a Ledger sign-in failure keeps the Ledger choice', async () => {
      const { manager } = setup()
      manager.connect.mockResolvedValue(solWallet(PHANTOM))
      siws.mockRejectedValueOnce(rejection())
      pick('Phantom')
      await flush()
      fireEvent.click(screen.getByRole('button', { name: 'Continue with Ledger' }))
      await flush()
      expect(heading()).toBe('You rejected the request')
      fireEvent.click(screen.getByRole('button', { name: 'Retry' }))
      await flush()
      expect(siws).toHaveBeenCalledTimes(2)
      expect(siws.mock.calls[1]?.[2]).toMatchObject({ messageType: 'transaction' })
    })

    it('a Phantom that cannot sign transactions is not asked', async () => {
      const { manager } = setup()
      manager.connect.mockResolvedValue(solWallet(PHANTOM, { ledgerCapable: false }))
      pick('Phantom')
      await flush()
      expect(screen.queryByText('Continue with Ledger')).toBeNull()
      expect(siws.mock.calls[0]?.[2]).toMatchObject({ messageType: 'plain' })
    })

    it('Phantom on Ethereum is not asked', async () => {
      const { manager } = setup({ walletChainType: 'ethereum-only' })
      manager.connect.mockResolvedValue(ethWallet(PHANTOM))
      pick('Phantom')
      await flush()
      expect(screen.queryByText('Continue with Ledger')).toBeNull()
      expect(siwe).toHaveBeenCalledTimes(1)
    })

    it('Back on the Ledger question returns to the list', async () => {
      const { manager } = setup()
      manager.connect.mockResolvedValue(solWallet(PHANTOM))
      pick('Phantom')
      await flush()
      fireEvent.click(screen.getByRole('button', { name: 'Back' }))
      expect(heading()).toBe('Log in with a wallet')
    })
  })
})

// --- Through the modal --------------------------------------------------------------

/** Opens the modal straight on the wallet list (`login({ method: 'wallet' })`). */
function ModalHost({
  disableSignup,
  ...callbacks
}: UseLoginParameters & { disableSignup?: boolean }) {
  const { ready, authenticated } = useLatchkey()
  const { login } = useLogin(callbacks)
  if (!ready) return null
  return authenticated ? (
    <p>Logged in</p>
  ) : (
    <button type="button" onClick={() => login({ method: 'wallet', disableSignup })}>
      Log in
    </button>
  )
}

const MODAL_ADDRESS = '0x2222222222222222222222222222222222222222'

/** An EIP-6963 wallet in the page that grants one account on chain 1. */
function announceWallet() {
  const provider = {
    request: vi.fn(async ({ method }: { method: string }) => {
      if (method === 'eth_requestAccounts' || method === 'eth_accounts') return [MODAL_ADDRESS]
      if (method === 'eth_chainId') return '0x1'
      throw Object.assign(new Error(`Unsupported ${method}`), { code: 4200 })
    }),
  }
  const announce = () =>
    window.dispatchEvent(
      new CustomEvent('eip6963:announceProvider', {
        detail: {
          info: { uuid: 'modal-wallet-uuid', name: 'Test Wallet', icon: '', rdns: 'test.wallet' },
          provider,
        },
      }),
    )
  window.addEventListener('eip6963:requestProvider', announce)
  return () => window.removeEventListener('eip6963:requestProvider', announce)
}

describe('wallet login in the modal', () => {
  // The modal's lazy chunk and the external-wallet manager's, loaded once:
  // opening the dialog then waits on nothing but promises.
  beforeAll(() =>
    Promise.all([import('../../chunk.ts'), import('../../../external-wallets-manager.ts')]),
  )
  let stop: () => void
  beforeEach(() => {
    localStorage.clear()
    stop = announceWallet()
  })
  afterEach(() => stop())

  it("logs in: 'Successfully connected with {wallet}', then completes with loginMethod 'wallet'", async () => {
    const user = toUser(
      wireUser('alice@example.com', Math.floor(Date.now() / 1000)) as Parameters<typeof toUser>[0],
    )
    siwe.mockResolvedValue({ user, isNewUser: true })
    vi.useFakeTimers()
    const onComplete = vi.fn()
    renderWithProvider(<ModalHost onComplete={onComplete} />)
    await elapse()
    fireEvent.click(screen.getByRole('button', { name: 'Log in' }))
    await elapse(MODAL_OPEN_DELAY_MS)
    screen.getByRole('heading', { name: 'Log in with a wallet' })
    // Opened on the method itself: nothing to go back to.
    expect(screen.queryByRole('button', { name: 'Back' })).toBeNull()
    fireEvent.click(screen.getByRole('button', { name: 'Test Wallet' }))
    await elapse()

    screen.getByRole('heading', { name: 'Successfully connected with Test Wallet' })
    expect(siwe).toHaveBeenCalledTimes(1)
    expect(siwe.mock.calls[0]?.[1]).toMatchObject({ type: 'ethereum', address: MODAL_ADDRESS })
    expect(siwe.mock.calls[0]?.[2]).toMatchObject({ intent: 'login', mode: 'login-or-sign-up' })
    // Spec 01 §4: the modal closes 1.4 s after a wallet's success.
    await elapse(SUCCESS_CLOSE_DELAY_MS - 1)
    expect(onComplete).not.toHaveBeenCalled()
    await elapse(1)
    expect(onComplete).toHaveBeenCalledTimes(1)
    expect(onComplete).toHaveBeenCalledWith(
      expect.objectContaining({ loginMethod: 'wallet', isNewUser: true, user }),
    )
  })

  it("a wallet without an account, sign-up disabled, reads 'Account not found'", async () => {
    siwe.mockRejectedValue(new LatchkeyError('USER_DOES_NOT_EXIST'))
    const onError = vi.fn()
    renderWithProvider(<ModalHost disableSignup onError={onError} />)
    fireEvent.click(await screen.findByRole('button', { name: 'Log in' }))
    fireEvent.click(await screen.findByRole('button', { name: 'Test Wallet' }))
    await screen.findByRole('heading', { name: 'Account not found' })
    expect(siwe.mock.calls[0]?.[2]).toMatchObject({ mode: 'no-signup' })
    expect(onError).toHaveBeenCalledWith('USER_DOES_NOT_EXIST')
  })
})
