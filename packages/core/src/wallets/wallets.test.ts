import { describe, expect, it, vi } from 'vitest'
import { ETH0, setupEnclaveClient as setup, userWith, walletWire } from '../test/enclave-client.ts'
import { createWallet, embeddedWallets } from './createWallet.ts'
import { createEmbeddedEthereumProvider } from './ethereumProvider.ts'
import { importWallet } from './importWallet.ts'
import { setRecoveryPassword } from './setRecoveryPassword.ts'
import { signSolanaMessage } from './signSolanaMessage.ts'

const ETH1 = '0x2222222222222222222222222222222222222222'
const SOL0 = '7EcDhSYGxXyscszYEp35KHN8vvw3svAuLKTzXwCFLtV'

describe('createWallet', () => {
  it('creates the first wallet with automatic recovery and returns it only once the server answered', async () => {
    const { client, request } = setup((event) => {
      if (event === 'latchkey:wallets:create')
        return { user: userWith(walletWire(ETH0, 'ethereum', 0)) }
    })
    const wallet = await createWallet(client)
    expect(request).toHaveBeenCalledWith(
      'latchkey:wallets:create',
      expect.objectContaining({
        chain_types: ['ethereum'],
        recovery: { method: 'latchkey' },
        access_token: expect.any(String),
      }),
      expect.anything(),
    )
    expect(wallet).toMatchObject({ address: ETH0, walletIndex: 0, chainType: 'ethereum' })
    expect(client.session.getState().user?.wallet?.address).toBe(ETH0)
  })

  it("refuses a second wallet without createAdditional: 'User already has an embedded wallet.'", async () => {
    const { client } = setup(() => ({}), [walletWire(ETH0, 'ethereum', 0)])
    await expect(createWallet(client)).rejects.toThrow('User already has an embedded wallet.')
  })

  it('adds the next HD index with createAdditional, recovering the device share first if needed', async () => {
    const { client, request } = setup(
      (event) => {
        if (event === 'latchkey:wallets:connect')
          return { entropy_id: ETH0, status: 'needs-recovery', recovery_method: 'latchkey' }
        if (event === 'latchkey:wallets:recover') return { entropy_id: ETH0 }
        if (event === 'latchkey:wallets:add')
          return {
            user: userWith(walletWire(ETH0, 'ethereum', 0), walletWire(ETH1, 'ethereum', 1)),
          }
      },
      [walletWire(ETH0, 'ethereum', 0)],
    )
    const wallet = await createWallet(client, { createAdditional: true })
    expect(request.mock.calls.map((c) => c[0])).toEqual([
      'latchkey:wallets:connect',
      'latchkey:wallets:recover',
      'latchkey:wallets:add',
    ])
    expect(request.mock.calls[2]?.[1]).toMatchObject({
      entropy_id: ETH0,
      chain_type: 'ethereum',
      wallet_index: 1,
    })
    expect(wallet.address).toBe(ETH1)
  })

  it('adds the first Solana wallet of the same secret', async () => {
    const { client, request } = setup(
      (event) => {
        if (event === 'latchkey:wallets:connect')
          return { entropy_id: ETH0, status: 'ready', recovery_method: 'latchkey' }
        if (event === 'latchkey:wallets:add')
          return { user: userWith(walletWire(ETH0, 'ethereum', 0), walletWire(SOL0, 'solana', 0)) }
      },
      [walletWire(ETH0, 'ethereum', 0)],
    )
    const wallet = await createWallet(client, { chainType: 'solana' })
    expect(request.mock.calls[1]?.[1]).toMatchObject({ chain_type: 'solana', wallet_index: 0 })
    expect(wallet).toMatchObject({ address: SOL0, chainType: 'solana' })
    expect(embeddedWallets(client.session.getState().user)).toHaveLength(2)
  })

  it("refuses when logged out: 'User must be authenticated before creating a Latchkey wallet'", async () => {
    const { client } = setup(() => ({}))
    client.session.clear()
    await expect(createWallet(client)).rejects.toThrow(
      'User must be authenticated before creating a Latchkey wallet',
    )
  })

  it('asks for the password when a password-protected wallet is used on a new device', async () => {
    const { client } = setup(
      (event) => {
        if (event === 'latchkey:wallets:connect')
          return { entropy_id: ETH0, status: 'needs-recovery', recovery_method: 'user-passcode' }
      },
      [walletWire(ETH0, 'ethereum', 0)],
    )
    await expect(createWallet(client, { createAdditional: true })).rejects.toMatchObject({
      code: 'RECOVERY_REQUIRED',
    })
  })
})

describe('embedded Ethereum provider (EIP-1193)', () => {
  const ready = (result: unknown) => (event: string) =>
    event === 'latchkey:wallets:connect'
      ? { entropy_id: ETH0, status: 'ready', recovery_method: 'latchkey' }
      : { result }

  it('answers accounts and chain id, and switches chains', async () => {
    const { client } = setup(ready('0x'), [walletWire(ETH0, 'ethereum', 0)])
    const wallet = embeddedWallets(client.session.getState().user)[0]!
    const provider = createEmbeddedEthereumProvider(client, wallet)
    expect(await provider.request({ method: 'eth_accounts' })).toEqual([ETH0])
    expect(await provider.request({ method: 'eth_chainId' })).toBe('0x1')
    await provider.request({
      method: 'wallet_switchEthereumChain',
      params: [{ chainId: '0x2105' }],
    })
    expect(await provider.request({ method: 'eth_chainId' })).toBe('0x2105')
  })

  it('signs through the enclave; a text message is sent as hex', async () => {
    const { client, request } = setup(ready('0xsig'), [walletWire(ETH0, 'ethereum', 0)])
    const provider = createEmbeddedEthereumProvider(
      client,
      embeddedWallets(client.session.getState().user)[0]!,
    )
    expect(await provider.request({ method: 'personal_sign', params: ['hello', ETH0] })).toBe(
      '0xsig',
    )
    expect(request.mock.calls[1]?.[1]).toMatchObject({
      request: { method: 'personal_sign', params: ['0x68656c6c6f', ETH0] },
    })
  })

  it("refuses empty messages: 'Message must be a non-empty string'", async () => {
    const { client } = setup(ready('0x'), [walletWire(ETH0, 'ethereum', 0)])
    const provider = createEmbeddedEthereumProvider(
      client,
      embeddedWallets(client.session.getState().user)[0]!,
    )
    await expect(provider.request({ method: 'personal_sign', params: ['', ETH0] })).rejects.toThrow(
      'Message must be a non-empty string',
    )
  })

  it('refuses another address (4100) and unsupported methods (4200)', async () => {
    const { client } = setup(ready('0x'), [walletWire(ETH0, 'ethereum', 0)])
    const provider = createEmbeddedEthereumProvider(
      client,
      embeddedWallets(client.session.getState().user)[0]!,
    )
    await expect(
      provider.request({ method: 'personal_sign', params: ['0x01', ETH1] }),
    ).rejects.toMatchObject({ code: 4100 })
    await expect(provider.request({ method: 'eth_sign', params: [] })).rejects.toMatchObject({
      code: 4200,
    })
  })
})

describe('signSolanaMessage', () => {
  it('sends the message as base64url with the 15 s proxy timeout and decodes the signature', async () => {
    const signature = new Uint8Array(64).fill(7)
    const encoded = btoa(String.fromCharCode(...signature))
      .replace(/\+/g, '-')
      .replace(/\//g, '_')
      .replace(/=+$/, '')
    const { client, request } = setup(
      (event) =>
        event === 'latchkey:wallets:connect'
          ? { entropy_id: ETH0, status: 'ready', recovery_method: 'latchkey' }
          : { result: encoded },
      [walletWire(ETH0, 'ethereum', 0), walletWire(SOL0, 'solana', 0)],
    )
    const wallet = embeddedWallets(client.session.getState().user, 'solana')[0]!
    const result = await signSolanaMessage(client, wallet, new TextEncoder().encode('hi'))
    expect(result).toEqual(signature)
    expect(request.mock.calls[1]?.[2]).toEqual({ initTimeoutMs: 15_000 })
    expect(request.mock.calls[1]?.[1]).toMatchObject({
      request: { method: 'signMessage', params: { message: 'aGk' } },
    })
  })
})

describe('importWallet', () => {
  it('hands the key to the enclave with the 15 s proxy timeout and returns the imported wallet', async () => {
    const IMPORTED = '0x3333333333333333333333333333333333333333'
    const { client, request } = setup(
      () => ({
        user: userWith(
          walletWire(ETH0, 'ethereum', 0),
          walletWire(IMPORTED, 'ethereum', null, IMPORTED),
        ),
      }),
      [walletWire(ETH0, 'ethereum', 0)],
    )
    const wallet = await importWallet(client, { privateKey: ' 0xabc ' })
    expect(request.mock.calls[0]?.[0]).toBe('latchkey:wallets:import')
    expect(request.mock.calls[0]?.[1]).toMatchObject({
      chain_type: 'ethereum',
      private_key: '0xabc',
    })
    expect(request.mock.calls[0]?.[2]).toEqual({ initTimeoutMs: 15_000 })
    expect(wallet).toMatchObject({ address: IMPORTED, imported: true, walletIndex: null })
  })
})

describe('setRecoveryPassword', () => {
  it("refuses passwords under 6 characters: 'Password must be at least 6 characters'", async () => {
    const { client, request } = setup(() => ({}), [walletWire(ETH0, 'ethereum', 0)])
    await expect(setRecoveryPassword(client, { password: '12345' })).rejects.toThrow(
      'Password must be at least 6 characters',
    )
    expect(request).not.toHaveBeenCalled()
  })

  it('re-seals the secret of the HD wallet under the password in the enclave', async () => {
    const { client, request } = setup(
      (event) => {
        if (event === 'latchkey:wallets:connect')
          return { entropy_id: ETH0, status: 'ready', recovery_method: 'latchkey' }
        return {
          user: userWith({
            ...walletWire(ETH0, 'ethereum', 0),
            recovery_method: 'user-passcode' as never,
          }),
        }
      },
      [walletWire(ETH0, 'ethereum', 0)],
    )
    const user = await setRecoveryPassword(client, { password: 'correct horse battery staple' })
    expect(request.mock.calls[1]?.[1]).toMatchObject({
      entropy_id: ETH0,
      recovery: { method: 'user-passcode', password: 'correct horse battery staple' },
    })
    expect(embeddedWallets(user)[0]?.recoveryMethod).toBe('user-passcode')
  })
})
