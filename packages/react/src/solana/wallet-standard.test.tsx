import { ProviderRpcError } from '@latchkey/core'
import { isSolanaSignInWallet } from '@latchkey/core/external'
import { providerErrors } from '@latchkey/protocol/errors'
import { cleanup, fireEvent, screen } from '@testing-library/react'
import type { StandardEventsChangeProperties } from '@wallet-standard/features'
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest'
import { renderWithWallets, SOL_ADDRESS } from '../test/wallet.tsx'
import { LatchkeyStandardWallet } from './LatchkeyStandardWallet.ts'
import { solanaPublicKey } from './standard-chains.ts'

// The embedded Solana wallet as a Wallet Standard wallet, connected and used
// through the real modal; the enclave a stub (test/wallet.tsx), the server a
// fake. Its registration by the provider: wallet-standard.registration.test.tsx.

beforeAll(() => import('../modal/chunk.ts'))
afterEach(() => {
  cleanup()
  vi.unstubAllGlobals()
})

const FEATURES = [
  'solana:signAndSendTransaction',
  'solana:signMessage',
  'solana:signTransaction',
  'standard:connect',
  'standard:disconnect',
  'standard:events',
]

/** A Latchkey wallet attached to a logged-in (or not) instance with a stub enclave. */
function setup(options: Parameters<typeof renderWithWallets>[1] = {}) {
  const rendered = renderWithWallets(null, options)
  const wallet = new LatchkeyStandardWallet()
  const detach = wallet.attach(rendered.instance)
  return { ...rendered, wallet, detach, features: wallet.features }
}

const outcome = <T,>(promise: Promise<T>) =>
  promise.then(
    (value) => ({ value }),
    (error: unknown) => ({ error }),
  )

describe('the Latchkey Wallet Standard wallet', () => {
  it("is not offered as an external wallet in Latchkey's own login modal", () => {
    expect(isSolanaSignInWallet(new LatchkeyStandardWallet())).toBe(false)
  })

  it('connect when logged in: the embedded Solana wallet, no modal; silent connect too', async () => {
    const { features, wallet, instance } = setup()
    const { accounts } = await features['standard:connect'].connect({ silent: true })
    expect(accounts.map((a) => a.address)).toEqual([SOL_ADDRESS])
    expect(accounts[0]?.publicKey).toEqual(solanaPublicKey(SOL_ADDRESS))
    expect(accounts[0]?.chains).toEqual(['solana:mainnet'])
    expect([...(accounts[0]?.features ?? [])].sort()).toEqual(FEATURES.slice(0, 3))
    expect(wallet.accounts).toEqual(accounts)
    expect(instance.getUiState().requested).toBe(false)
    // Connecting again gives the same accounts.
    expect((await features['standard:connect'].connect()).accounts).toEqual(accounts)
  })

  it('silent connect when logged out opens nothing; connect opens the login modal, closing it is the 4001 rejection', async () => {
    const { features, instance, client } = setup({ authenticated: false })
    await client.session.initialize()
    expect(await features['standard:connect'].connect({ silent: true })).toEqual({ accounts: [] })
    expect(instance.getUiState().requested).toBe(false)
    const connecting = outcome(features['standard:connect'].connect())
    fireEvent.click(await screen.findByRole('button', { name: 'Close' }))
    const { error } = (await connecting) as { error: ProviderRpcError }
    expect(error).toBeInstanceOf(ProviderRpcError)
    expect(error.code).toBe(4001)
  })

  it("logout emits 'change' with no accounts; disconnect empties them too", async () => {
    const { features, wallet, client } = setup()
    await features['standard:connect'].connect()
    const changes: StandardEventsChangeProperties[] = []
    features['standard:events'].on('change', (change) => changes.push(change))
    await client.session.logout()
    expect(changes).toEqual([{ accounts: [] }])
    expect(wallet.accounts).toEqual([])
    cleanup()

    const other = setup()
    await other.features['standard:connect'].connect()
    const off = vi.fn()
    other.features['standard:events'].on('change', off)
    await other.features['standard:disconnect'].disconnect()
    expect(off).toHaveBeenCalledWith({ accounts: [] })
  })

  it("'change' on chains when the app's clusters change", async () => {
    const { features, wallet, instance } = setup()
    await features['standard:connect'].connect()
    const changes: StandardEventsChangeProperties[] = []
    features['standard:events'].on('change', (change) => changes.push(change))
    instance.setHostConfig({ solanaClusters: [{ name: 'devnet', rpcUrl: 'x' }] })
    expect(changes).toHaveLength(1)
    expect(changes[0]?.chains).toEqual(['solana:devnet'])
    expect(changes[0]?.accounts?.[0]?.chains).toEqual(['solana:devnet'])
    expect(wallet.chains).toEqual(['solana:devnet'])
  })

  it('signMessage: the sign screen, the enclave signature; declining rejects with the hook error', async () => {
    const signature = new Uint8Array(64).fill(7)
    const { features, rpc } = setup({
      rpc: () => ({ result: btoa(String.fromCharCode(...signature)).replace(/=+$/, '') }),
    })
    const [account] = (await features['standard:connect'].connect()).accounts
    if (!account) throw new Error('connect gave no account')
    const message = new TextEncoder().encode('gm from a dapp')
    const signing = features['solana:signMessage'].signMessage({ account, message })
    await screen.findByText('gm from a dapp')
    fireEvent.click(screen.getByRole('button', { name: 'Sign and continue' }))
    await screen.findByRole('button', { name: 'Success' })
    fireEvent.click(screen.getByRole('button', { name: 'Close' }))
    expect(await signing).toEqual([{ signedMessage: message, signature, signatureType: 'ed25519' }])
    expect(rpc.mock.calls[0]?.[0].chain_type).toBe('solana')

    const declined = outcome(features['solana:signMessage'].signMessage({ account, message }))
    await screen.findByText('gm from a dapp')
    fireEvent.click(screen.getByRole('button', { name: 'Close' }))
    const { error } = (await declined) as { error: ProviderRpcError }
    expect(error).toBeInstanceOf(ProviderRpcError)
    expect(error.message).toBe(providerErrors.userRejectedRequest.message)
    expect(rpc).toHaveBeenCalledTimes(1)
  })

  it('refuses an account the app was not given (4100), a chain not among the clusters, and answers 4900 once detached', async () => {
    const { features, detach, instance } = setup()
    const account = {
      address: SOL_ADDRESS,
      publicKey: solanaPublicKey(SOL_ADDRESS),
      chains: [],
      features: [],
    } as const
    const transaction = new Uint8Array([1, ...new Array(64).fill(0), 0x80, 1, 0, 1])
    const before = (await outcome(
      features['solana:signTransaction'].signTransaction({ account, transaction }),
    )) as { error: ProviderRpcError }
    expect(before.error.code).toBe(4100)
    await features['standard:connect'].connect()
    const chain = (await outcome(
      features['solana:signAndSendTransaction'].signAndSendTransaction({
        account,
        transaction,
        chain: 'solana:testnet',
      }),
    )) as { error: { code: string } }
    expect(chain.error.code).toBe('UNSUPPORTED_CHAIN')
    expect(instance.getUiState().requested).toBe(false)
    detach()
    const gone = (await outcome(features['standard:connect'].connect())) as {
      error: ProviderRpcError
    }
    expect(gone.error.code).toBe(4900)
  })
})
