import { describe, expect, it } from 'vitest'
import { LatchkeyError } from '../errors.ts'
import { ETH0, setupEnclaveClient as setup, userWith, walletWire } from '../test/enclave-client.ts'
import { createWallet, embeddedWallets } from './createWallet.ts'
import { createWalletsOnLogin } from './createWalletsOnLogin.ts'

// Spec 02 §8 'User created a wallet but failed to set a password for it': a
// "create with a password" flow whose wallets were added to an existing
// automatic secret sets the password right after; when that step fails the
// wallet exists, unprotected, and the flow says so.

const SOL0 = '7EcDhSYGxXyscszYEp35KHN8vvw3svAuLKTzXwCFLtV'
const PASSWORD = { method: 'user-passcode' as const, password: 'correct horse' }
type Recovery = 'latchkey' | 'user-passcode' | 'google-drive'
type Wire = ReturnType<typeof walletWire>
/** The wire wallet with another recovery method (walletWire's is automatic). */
const withRecovery = (wire: Wire, recovery: Recovery) =>
  ({ ...wire, recovery_method: recovery }) as unknown as Wire
const eth = (recovery: Recovery = 'latchkey') =>
  withRecovery(walletWire(ETH0, 'ethereum', 0), recovery)
const sol = (recovery: Recovery = 'latchkey') =>
  withRecovery(walletWire(SOL0, 'solana', 0), recovery)

/** An enclave where the user's secret is ready here and adding Solana works; set-recovery as `setRecovery`. */
function enclave(setRecovery: () => unknown, existing: Recovery = 'latchkey') {
  return setup(
    (event) => {
      if (event === 'latchkey:wallets:connect')
        return { entropy_id: ETH0, status: 'ready', recovery_method: existing }
      if (event === 'latchkey:wallets:add') return { user: userWith(eth(existing), sol(existing)) }
      if (event === 'latchkey:wallets:set-recovery') return setRecovery()
    },
    [eth(existing)],
  )
}

describe('creating a wallet with a password on an existing automatic secret', () => {
  it('adds the wallet, then sets the password on the secret', async () => {
    const { client, request } = enclave(() => ({
      user: userWith(eth('user-passcode'), sol('user-passcode')),
    }))
    const wallet = await createWallet(client, { chainType: 'solana', recovery: PASSWORD })
    expect(request.mock.calls.map((c) => c[0])).toEqual([
      'latchkey:wallets:connect',
      'latchkey:wallets:add',
      'latchkey:wallets:set-recovery',
    ])
    expect(request.mock.calls[2]?.[1]).toMatchObject({ entropy_id: ETH0, recovery: PASSWORD })
    expect(wallet).toMatchObject({ address: SOL0, recoveryMethod: 'user-passcode' })
  })

  it("says 'User created a wallet but failed to set a password for it' when the password step fails", async () => {
    const refused = new LatchkeyError('INTERNAL_ERROR', 'The enclave could not seal the share')
    const { client } = enclave(() => {
      throw refused
    })
    const failure = await createWallet(client, { chainType: 'solana', recovery: PASSWORD }).catch(
      (e: LatchkeyError) => e,
    )
    expect(failure).toMatchObject({
      code: 'WALLET_PASSWORD_NOT_SET',
      message: 'User created a wallet but failed to set a password for it',
      details: { code: 'INTERNAL_ERROR' },
      cause: refused,
    })
    // The creation itself went through: the session already holds the new wallet.
    const wallets = embeddedWallets(client.session.getState().user)
    expect(wallets.map((w) => [w.address, w.recoveryMethod])).toEqual([
      [ETH0, 'latchkey'],
      [SOL0, 'latchkey'],
    ])
  })

  it('createWalletsOnLogin with a password fails the same way', async () => {
    const { client } = enclave(() => {
      throw new LatchkeyError('WALLET_PROXY_DISCONNECTED')
    })
    await expect(createWalletsOnLogin(client, ['solana'], PASSWORD)).rejects.toMatchObject({
      code: 'WALLET_PASSWORD_NOT_SET',
      details: { code: 'WALLET_PROXY_DISCONNECTED' },
    })
  })

  it('keeps a secret that already has user-owned recovery as it is', async () => {
    const { client, request } = enclave(() => {
      throw new Error('not asked')
    }, 'google-drive')
    const wallet = await createWallet(client, { chainType: 'solana', recovery: PASSWORD })
    expect(request.mock.calls.map((c) => c[0])).not.toContain('latchkey:wallets:set-recovery')
    expect(wallet.recoveryMethod).toBe('google-drive')
  })

  it('a new secret takes the password in its one creation step', async () => {
    const { client, request } = setup((event) => {
      if (event === 'latchkey:wallets:create') return { user: userWith(eth('user-passcode')) }
    })
    await createWallet(client, { recovery: PASSWORD })
    expect(request.mock.calls.map((c) => c[0])).toEqual(['latchkey:wallets:create'])
    expect(request.mock.calls[0]?.[1]).toMatchObject({ recovery: PASSWORD })
  })
})
