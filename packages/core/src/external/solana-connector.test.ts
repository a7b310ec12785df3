import { afterEach, describe, expect, it } from 'vitest'
import {
  create,
  fakeEthereumWallet,
  fakeSolanaWallet,
  installEthereum,
  installSolana,
  resetExternalWalletFakes,
  SOL_ADDRESS,
  SOL_ICON,
  SOL_OTHER,
  storedRecords,
  trackConnector,
} from '../test/external-wallets.ts'
import type { ConnectedSolanaExternalWallet } from './types.ts'

afterEach(() => {
  resetExternalWalletFakes()
})

describe('connect (Solana, Wallet Standard)', () => {
  it('connects with standard:connect and stores the record', async () => {
    const fake = fakeSolanaWallet('Solflare')
    const key = installSolana(fake)
    const { wallets, storage } = create()
    const states = trackConnector(wallets, key)
    const wallet = (await wallets.connect(key, 'solana')) as ConnectedSolanaExternalWallet
    expect(fake.connect).toHaveBeenCalledWith(undefined)
    expect(wallet).toMatchObject({
      type: 'solana',
      address: SOL_ADDRESS,
      chainId: null,
      walletClientType: 'solflare',
      connectorType: 'solana_adapter',
      imported: false,
      meta: { name: 'Solflare', icon: SOL_ICON, id: key },
    })
    expect(wallet.signIn).toBeUndefined()
    expect(wallet.signTransaction).toBeUndefined()
    expect(states).toEqual([undefined, 'created', 'connected'])
    expect(storedRecords(storage)).toEqual([
      expect.objectContaining({ key, chainType: 'solana', connectorType: 'solana_adapter' }),
    ])
    expect(wallets.recent()).toEqual({ walletClientType: 'solflare', chainType: 'solana' })
  })

  it('signMessage passes the account and the bytes through and returns the signature', async () => {
    const fake = fakeSolanaWallet('Solflare')
    const key = installSolana(fake)
    const { wallets } = create()
    const wallet = (await wallets.connect(key, 'solana')) as ConnectedSolanaExternalWallet
    const message = new TextEncoder().encode('hello')
    const signature = await wallet.signMessage(message)
    expect(fake.signMessage).toHaveBeenCalledWith({ account: fake.account, message })
    expect(signature).toEqual(new Uint8Array(64).fill(7))
  })

  it('exposes signIn and signTransaction when the wallet has them', async () => {
    const fake = fakeSolanaWallet('Phantom', { signIn: true, signTransaction: true })
    const key = installSolana(fake)
    const { wallets } = create()
    const wallet = (await wallets.connect(key, 'solana')) as ConnectedSolanaExternalWallet
    const transaction = Uint8Array.from([1, 2, 3])
    expect(await wallet.signTransaction?.(transaction)).toEqual(transaction)
    expect(fake.signTx).toHaveBeenCalledWith({
      account: fake.account,
      transaction,
      chain: 'solana:mainnet',
    })
    const input = { domain: 'app.test', nonce: 'abcdefgh' }
    expect(await wallet.signIn?.(input)).toEqual({
      signedMessage: new TextEncoder().encode('signed'),
      signature: new Uint8Array(64).fill(9),
    })
    expect(fake.signInFn).toHaveBeenCalledWith(input)
  })

  it('a wallet rejecting with a plain "User rejected" Error gives WALLET_USER_REJECTED', async () => {
    const fake = fakeSolanaWallet('Solflare')
    fake.connect.mockRejectedValueOnce(new Error('User rejected the request.'))
    const key = installSolana(fake)
    const { wallets } = create()
    await expect(wallets.connect(key, 'solana')).rejects.toMatchObject({
      code: 'WALLET_USER_REJECTED',
    })
    expect(wallets.getState().connectors[key]).toBe('disconnected')
  })

  it('a wallet granting no account gives WALLET_NO_ACCOUNTS', async () => {
    const fake = fakeSolanaWallet('Solflare')
    fake.connect.mockResolvedValueOnce({ accounts: [] })
    const key = installSolana(fake)
    const { wallets } = create()
    await expect(wallets.connect(key, 'solana')).rejects.toMatchObject({
      code: 'WALLET_NO_ACCOUNTS',
    })
  })

  it("an EVM + Solana wallet's injected row connects on Solana through its Wallet Standard side", async () => {
    const evm = fakeEthereumWallet()
    const key = installEthereum(evm, { uuid: 'uuid-phantom', name: 'Phantom', rdns: 'app.phantom' })
    const sol = fakeSolanaWallet('Phantom')
    installSolana(sol)
    const { wallets } = create()
    const wallet = await wallets.connect(key, 'solana')
    expect(wallet).toMatchObject({ type: 'solana', meta: { id: 'standard:Phantom' } })
    expect(sol.connect).toHaveBeenCalled()
    expect(evm.request).not.toHaveBeenCalled()
  })

  it('follows account changes: a new account updates it, none removes it', async () => {
    const fake = fakeSolanaWallet('Solflare')
    const key = installSolana(fake)
    const { wallets, storage } = create()
    await wallets.connect(key, 'solana')
    fake.change([fake.accountFor(SOL_OTHER)])
    expect(wallets.getState().wallets).toEqual([
      expect.objectContaining({ address: SOL_OTHER, connectedAt: 1_700_000_000_000 }),
    ])
    expect(storedRecords(storage)?.[0]?.address).toBe(SOL_OTHER)
    fake.change([])
    expect(wallets.getState().wallets).toEqual([])
    expect(wallets.getState().connectors[key]).toBe('disconnected')
  })

  it('disconnect() forgets the wallet and asks it to disconnect', async () => {
    const fake = fakeSolanaWallet('Solflare')
    const key = installSolana(fake)
    const { wallets, storage } = create()
    const wallet = await wallets.connect(key, 'solana')
    await wallet.disconnect()
    expect(fake.disconnect).toHaveBeenCalled()
    expect(wallets.getState().wallets).toEqual([])
    expect(storedRecords(storage)).toBeNull()
  })

  it('an unknown Wallet Standard name gives WALLET_NOT_FOUND_EXTERNAL', async () => {
    const { wallets } = create()
    await expect(wallets.connect('standard:Nope', 'solana')).rejects.toMatchObject({
      code: 'WALLET_NOT_FOUND_EXTERNAL',
    })
  })
})
