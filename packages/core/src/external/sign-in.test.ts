import { SIWS_CHAIN_ID } from '@latchkey/protocol/constants'
import type { SiwsSignInInput } from '@latchkey/protocol/schemas'
import { ed25519 } from '@noble/curves/ed25519.js'
import { base58, base64 } from '@scure/base'
import { createSignInMessage, createSignInMessageText } from '@solana/wallet-standard-util'
import { type Hex, stringToHex, verifyMessage } from 'viem'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { base, mainnet, optimism } from 'viem/chains'
import { parseSiweMessage } from 'viem/siwe'
import { describe, expect, it, vi } from 'vitest'
import { createLatchkeyClient } from '../client.ts'
import { getRecentLoginMethod } from '../recent-login.ts'
import { createMemoryStorage } from '../storage.ts'
import {
  APP_ID,
  authResponse,
  createFakeFetch,
  json,
  type RecordedCall,
  wireUser,
} from '../test/fake-server.ts'
import type { EIP1193Provider } from './ethereum-discovery.ts'
import { buildMemoTransaction, compactU16, MEMO_PROGRAM_ID } from './memo-transaction.ts'
import { signInWithEthereum, signInWithSolana, type WalletSignInStatus } from './sign-in.ts'
import type {
  ConnectedEthereumExternalWallet,
  ConnectedSolanaExternalWallet,
  SolanaSignInInput,
} from './types.ts'

const NONCE = 'n0nce1234567890abcdef'
const PAGE = { host: 'app.test:8443', origin: 'https://app.test:8443' }
const exp = Math.floor(Date.now() / 1000) + 3600

function externalWalletWire(address: string, chainType: 'ethereum' | 'solana') {
  return {
    type: 'wallet' as const,
    address,
    chain_type: chainType,
    chain_id: chainType === 'ethereum' ? 'eip155:1' : null,
    wallet_client_type: chainType === 'ethereum' ? 'metamask' : 'phantom',
    connector_type: chainType === 'ethereum' ? ('injected' as const) : ('solana_adapter' as const),
    wallet_index: null,
    imported: false as const,
    delegated: false as const,
    verified_at: 1_700_000_000,
    first_verified_at: 1_700_000_000,
    latest_verified_at: 1_700_000_000,
  }
}

function userWith(account?: ReturnType<typeof externalWalletWire>) {
  const user = wireUser()
  return account ? { ...user, linked_accounts: [...user.linked_accounts, account] } : user
}

function siwsInput(address: string): SiwsSignInInput {
  return {
    domain: 'app.test:8443',
    address,
    statement: 'Sign in to Test App',
    uri: 'https://app.test:8443',
    version: '1',
    chain_id: SIWS_CHAIN_ID,
    nonce: NONCE,
    issued_at: '2025-01-01T00:00:00.000Z',
    expiration_time: '2025-01-01T00:10:00.000Z',
  }
}

/** A client talking to a scripted server; `loggedIn` starts with a session (for link). */
function setup({ loggedIn = false, isNewUser = true } = {}) {
  const handler = vi.fn((call: RecordedCall) => {
    const path = new URL(call.url).pathname
    const body = call.body as { address?: string }
    switch (path) {
      case '/api/v1/siwe/init':
        return json(200, { nonce: NONCE, address: body.address, expires_at: Date.now() + 600_000 })
      case '/api/v1/siws/init':
        return json(200, {
          nonce: NONCE,
          address: body.address,
          expires_at: Date.now() + 600_000,
          sign_in_input: siwsInput(body.address ?? ''),
        })
      case '/api/v1/siwe/authenticate':
      case '/api/v1/siws/authenticate':
        return json(200, { ...authResponse({ exp }), is_new_user: isNewUser })
      case '/api/v1/siwe/link':
        return json(200, userWith(externalWalletWire(ETH_ACCOUNT.address, 'ethereum')))
      case '/api/v1/siws/link':
        return json(200, userWith(externalWalletWire(SOL.address, 'solana')))
      default:
        return json(404, { error: 'not_found' })
    }
  })
  const fake = createFakeFetch(handler)
  const storage = createMemoryStorage()
  const client = createLatchkeyClient({
    appId: APP_ID,
    apiUrl: 'http://api.test',
    fetch: fake.fetch,
    storage,
    cookies: { get: () => null, set() {}, remove() {} },
    http: { sleep: async () => {}, maxRetries: 0 },
  })
  if (loggedIn) client.session.applyAuthResponse(authResponse({ exp }))
  const calls = fake.calls
  const call = (path: string) => calls.find((c) => new URL(c.url).pathname === path)
  const paths = () => calls.map((c) => new URL(c.url).pathname)
  return { client, storage, calls, call, paths }
}

// --- Ethereum ------------------------------------------------------------------

const ETH_ACCOUNT = privateKeyToAccount(generatePrivateKey())

/** A fake EIP-1193 wallet whose personal_sign signs with a real key. */
function fakeEthereumProvider({ chainId = 1, knownChains = [1, 10] } = {}) {
  const state = { chainId, knownChains: new Set(knownChains) }
  const request = vi.fn(async ({ method, params }: { method: string; params?: unknown }) => {
    switch (method) {
      case 'personal_sign': {
        const [message, address] = params as [Hex, string]
        if (address.toLowerCase() !== ETH_ACCOUNT.address.toLowerCase())
          throw Object.assign(new Error('Unknown account'), { code: 4100 })
        return ETH_ACCOUNT.signMessage({ message: { raw: message } })
      }
      case 'wallet_switchEthereumChain': {
        const id = Number((params as [{ chainId: string }])[0].chainId)
        if (!state.knownChains.has(id)) throw { code: 4902 }
        state.chainId = id
        return null
      }
      case 'wallet_addEthereumChain':
        state.knownChains.add(Number((params as [{ chainId: string }])[0].chainId))
        return null
      default:
        throw { code: 4200 }
    }
  })
  const provider: EIP1193Provider = { request }
  return { provider, request, state }
}

function ethereumWallet(
  provider: EIP1193Provider,
  chainId = 1,
  address: string = ETH_ACCOUNT.address.toLowerCase(),
): ConnectedEthereumExternalWallet {
  return {
    type: 'ethereum',
    address,
    chainId: `eip155:${chainId}`,
    connectedAt: 1,
    walletClientType: 'metamask',
    connectorType: 'injected',
    imported: false,
    meta: { name: 'MetaMask', icon: null, id: 'eip6963:uuid' },
    getEthereumProvider: () => provider,
    switchChain: async () => {},
    disconnect: async () => {},
  }
}

describe('signInWithEthereum', () => {
  it('signs an EIP-4361 message with the server nonce and logs in', async () => {
    const { client, storage, call, paths } = setup()
    const fake = fakeEthereumProvider()
    const statuses: WalletSignInStatus[] = []
    const result = await signInWithEthereum(client, ethereumWallet(fake.provider), {
      chains: [mainnet, optimism],
      defaultChain: mainnet,
      location: PAGE,
      onStatus: (status) => statuses.push(status),
    })

    expect(paths()).toEqual(['/api/v1/siwe/init', '/api/v1/siwe/authenticate'])
    // The init asks for a nonce for the checksummed address, without a session.
    expect(call('/api/v1/siwe/init')?.body).toEqual({ address: ETH_ACCOUNT.address })
    expect(call('/api/v1/siwe/init')?.headers.authorization).toBeUndefined()

    const body = call('/api/v1/siwe/authenticate')?.body as Record<string, string>
    expect(body).toEqual({
      message: expect.any(String),
      signature: expect.stringMatching(/^0x[0-9a-f]{130}$/),
      chain_id: 'eip155:1',
      wallet_client_type: 'metamask',
      connector_type: 'injected',
      mode: 'login-or-sign-up',
    })
    const parsed = parseSiweMessage(body.message as string)
    expect(parsed).toMatchObject({
      domain: PAGE.host,
      address: ETH_ACCOUNT.address,
      uri: PAGE.origin,
      version: '1',
      chainId: 1,
      nonce: NONCE,
    })
    expect(parsed.issuedAt).toBeInstanceOf(Date)
    expect(
      await verifyMessage({
        address: ETH_ACCOUNT.address,
        message: body.message as string,
        signature: body.signature as Hex,
      }),
    ).toBe(true)

    // The wallet was asked with the message as hex and the checksummed address.
    const personalSign = fake.request.mock.calls.find(([args]) => args.method === 'personal_sign')
    expect(personalSign?.[0].params).toEqual([
      stringToHex(body.message as string),
      ETH_ACCOUNT.address,
    ])

    expect(statuses).toEqual(['awaiting-signature', 'verifying'])
    expect(result.isNewUser).toBe(true)
    expect(result.user.id).toBe(wireUser().id)
    expect(client.session.getState().status).toBe('authenticated')
    expect(getRecentLoginMethod(storage, APP_ID)).toBe('wallet')
  })

  it('signs for the chain the wallet is on when the app supports it', async () => {
    const { client, call } = setup()
    const fake = fakeEthereumProvider({ chainId: 10 })
    await signInWithEthereum(client, ethereumWallet(fake.provider, 10), {
      chains: [mainnet, optimism],
      defaultChain: mainnet,
      location: PAGE,
    })
    expect(fake.request.mock.calls.map(([args]) => args.method)).toEqual(['personal_sign'])
    const body = call('/api/v1/siwe/authenticate')?.body as { message: string; chain_id: string }
    expect(parseSiweMessage(body.message).chainId).toBe(10)
    expect(body.chain_id).toBe('eip155:10')
  })

  it('switches a wallet on an unsupported chain to defaultChain first (adding it on 4902)', async () => {
    const { client, call } = setup()
    const fake = fakeEthereumProvider({ chainId: 1, knownChains: [1] })
    const statuses: WalletSignInStatus[] = []
    await signInWithEthereum(client, ethereumWallet(fake.provider, 1), {
      chains: [base],
      defaultChain: base,
      location: PAGE,
      onStatus: (status) => statuses.push(status),
    })
    expect(statuses).toEqual(['switching-chain', 'awaiting-signature', 'verifying'])
    expect(fake.request.mock.calls.map(([args]) => args.method)).toEqual([
      'wallet_switchEthereumChain',
      'wallet_addEthereumChain',
      'wallet_switchEthereumChain',
      'personal_sign',
    ])
    expect(fake.state.chainId).toBe(base.id)
    const body = call('/api/v1/siwe/authenticate')?.body as { message: string; chain_id: string }
    expect(parseSiweMessage(body.message).chainId).toBe(base.id)
    expect(body.chain_id).toBe(`eip155:${base.id}`)
  })

  it('a refused chain switch stops before asking the server for a nonce', async () => {
    const { client, calls } = setup()
    const fake = fakeEthereumProvider({ chainId: 1 })
    fake.request.mockRejectedValueOnce({ code: 4001 })
    await expect(
      signInWithEthereum(client, ethereumWallet(fake.provider, 1), {
        chains: [optimism],
        defaultChain: optimism,
        location: PAGE,
      }),
    ).rejects.toMatchObject({ code: 'WALLET_USER_REJECTED' })
    expect(calls).toHaveLength(0)
  })

  it('a rejected signature gives WALLET_USER_REJECTED and does not authenticate', async () => {
    const { client, paths } = setup()
    const fake = fakeEthereumProvider()
    fake.request.mockRejectedValueOnce({ code: 4001 })
    await expect(
      signInWithEthereum(client, ethereumWallet(fake.provider), {
        chains: [mainnet],
        defaultChain: mainnet,
        location: PAGE,
      }),
    ).rejects.toMatchObject({ code: 'WALLET_USER_REJECTED' })
    expect(paths()).toEqual(['/api/v1/siwe/init'])
    expect(client.session.getState().status).not.toBe('authenticated')
  })

  it('passes the mode, the captcha token and a statement', async () => {
    const { client, call } = setup()
    const fake = fakeEthereumProvider()
    await signInWithEthereum(client, ethereumWallet(fake.provider), {
      chains: [mainnet],
      defaultChain: mainnet,
      location: PAGE,
      mode: 'no-signup',
      captchaToken: 'captcha-1',
      statement: 'Sign in to Test App',
    })
    expect(call('/api/v1/siwe/init')?.body).toEqual({
      address: ETH_ACCOUNT.address,
      token: 'captcha-1',
    })
    const body = call('/api/v1/siwe/authenticate')?.body as Record<string, string>
    expect(body).toMatchObject({ mode: 'no-signup', token: 'captcha-1' })
    expect(parseSiweMessage(body.message as string).statement).toBe('Sign in to Test App')
  })

  it('names the current page by default (window.location)', async () => {
    const { client, call } = setup()
    const fake = fakeEthereumProvider()
    await signInWithEthereum(client, ethereumWallet(fake.provider), {
      chains: [mainnet],
      defaultChain: mainnet,
    })
    const body = call('/api/v1/siwe/authenticate')?.body as { message: string }
    expect(parseSiweMessage(body.message)).toMatchObject({
      domain: window.location.host,
      uri: window.location.origin,
    })
  })

  it("intent 'link' posts to the link route with the session, without mode, and updates the user", async () => {
    const { client, storage, call, paths } = setup({ loggedIn: true })
    const fake = fakeEthereumProvider()
    const statuses: WalletSignInStatus[] = []
    const result = await signInWithEthereum(client, ethereumWallet(fake.provider), {
      chains: [mainnet],
      defaultChain: mainnet,
      location: PAGE,
      intent: 'link',
      onStatus: (status) => statuses.push(status),
    })
    expect(paths()).toEqual(['/api/v1/siwe/init', '/api/v1/siwe/link'])
    const link = call('/api/v1/siwe/link')
    expect(link?.headers.authorization).toMatch(/^Bearer /)
    expect(link?.body).not.toHaveProperty('mode')
    expect(link?.body).toMatchObject({ chain_id: 'eip155:1', wallet_client_type: 'metamask' })
    expect(
      await verifyMessage({
        address: ETH_ACCOUNT.address,
        message: (link?.body as { message: string } | undefined)?.message ?? '',
        signature: (link?.body as { signature: Hex } | undefined)?.signature ?? '0x',
      }),
    ).toBe(true)
    expect(statuses).toEqual(['awaiting-signature', 'verifying'])
    expect(result.isNewUser).toBe(false)
    expect(result.user.linkedAccounts).toContainEqual(
      expect.objectContaining({ type: 'wallet', address: ETH_ACCOUNT.address }),
    )
    expect(client.session.getState().user).toEqual(result.user)
    expect(getRecentLoginMethod(storage, APP_ID)).toBeNull()
  })

  it("intent 'link' without a session fails with NOT_AUTHENTICATED", async () => {
    const { client, paths } = setup()
    const fake = fakeEthereumProvider()
    await expect(
      signInWithEthereum(client, ethereumWallet(fake.provider), {
        chains: [mainnet],
        defaultChain: mainnet,
        location: PAGE,
        intent: 'link',
      }),
    ).rejects.toMatchObject({ code: 'NOT_AUTHENTICATED' })
    expect(paths()).toEqual(['/api/v1/siwe/init'])
  })
})

// --- Solana --------------------------------------------------------------------

const SOL = (() => {
  const secretKey = ed25519.utils.randomSecretKey()
  const publicKey = ed25519.getPublicKey(secretKey)
  return { secretKey, publicKey, address: base58.encode(publicKey) }
})()

function solanaWallet(
  extra: Partial<ConnectedSolanaExternalWallet> = {},
): ConnectedSolanaExternalWallet {
  return {
    type: 'solana',
    address: SOL.address,
    chainId: null,
    connectedAt: 1,
    walletClientType: 'phantom',
    connectorType: 'solana_adapter',
    imported: false,
    meta: { name: 'Phantom', icon: null, id: 'standard:Phantom' },
    signMessage: vi.fn(async (message: Uint8Array) => ed25519.sign(message, SOL.secretKey)),
    disconnect: async () => {},
    ...extra,
  }
}

/** What a wallet with solana:signIn does: builds the message from the input and signs it. */
const signInCapable = () =>
  vi.fn(async (input: SolanaSignInInput) => {
    const signedMessage = createSignInMessage({
      ...input,
      domain: input.domain ?? '',
      address: input.address ?? SOL.address,
    })
    return { signedMessage, signature: ed25519.sign(signedMessage, SOL.secretKey) }
  })

/** What a Ledger-backed wallet does: signs the transaction's message, fills the signature slot. */
const transactionSigner = () =>
  vi.fn(async (transaction: Uint8Array) => {
    const signed = transaction.slice()
    signed.set(ed25519.sign(transaction.slice(65), SOL.secretKey), 1)
    return signed
  })

function expectedText() {
  const input = siwsInput(SOL.address)
  return createSignInMessageText({
    domain: input.domain,
    address: input.address,
    statement: input.statement,
    uri: input.uri,
    version: input.version,
    chainId: input.chain_id,
    nonce: input.nonce,
    issuedAt: input.issued_at,
    expirationTime: input.expiration_time,
  })
}

describe('signInWithSolana', () => {
  it("a solana:signIn wallet signs the server's sign-in input; the message and signature are posted", async () => {
    const { client, storage, call, paths } = setup()
    const signIn = signInCapable()
    const wallet = solanaWallet({ signIn })
    const statuses: WalletSignInStatus[] = []
    const result = await signInWithSolana(client, wallet, {
      onStatus: (status) => statuses.push(status),
    })

    expect(paths()).toEqual(['/api/v1/siws/init', '/api/v1/siws/authenticate'])
    expect(call('/api/v1/siws/init')?.body).toEqual({ address: SOL.address })
    expect(signIn).toHaveBeenCalledWith({
      domain: 'app.test:8443',
      address: SOL.address,
      statement: 'Sign in to Test App',
      uri: 'https://app.test:8443',
      version: '1',
      chainId: SIWS_CHAIN_ID,
      nonce: NONCE,
      issuedAt: '2025-01-01T00:00:00.000Z',
      expirationTime: '2025-01-01T00:10:00.000Z',
    })
    expect(wallet.signMessage).not.toHaveBeenCalled()

    const body = call('/api/v1/siws/authenticate')?.body as Record<string, string>
    expect(body).toEqual({
      message: expectedText(),
      signature: expect.any(String),
      message_type: 'plain',
      wallet_client_type: 'phantom',
      connector_type: 'solana_adapter',
      mode: 'login-or-sign-up',
    })
    const signature = base64.decode(body.signature as string)
    expect(signature).toHaveLength(64)
    expect(
      ed25519.verify(signature, new TextEncoder().encode(body.message as string), SOL.publicKey),
    ).toBe(true)

    expect(statuses).toEqual(['awaiting-signature', 'verifying'])
    expect(result.isNewUser).toBe(true)
    expect(client.session.getState().status).toBe('authenticated')
    expect(getRecentLoginMethod(storage, APP_ID)).toBe('wallet')
  })

  it('a signMessage-only wallet signs the same message text', async () => {
    const { client, call } = setup({ isNewUser: false })
    const wallet = solanaWallet()
    const result = await signInWithSolana(client, wallet, { captchaToken: 'captcha-1' })
    expect(call('/api/v1/siws/init')?.body).toEqual({ address: SOL.address, token: 'captcha-1' })
    const text = expectedText()
    expect(wallet.signMessage).toHaveBeenCalledWith(new TextEncoder().encode(text))
    const body = call('/api/v1/siws/authenticate')?.body as Record<string, string>
    expect(body).toMatchObject({ message: text, message_type: 'plain', token: 'captcha-1' })
    expect(
      ed25519.verify(
        base64.decode(body.signature as string),
        new TextEncoder().encode(text),
        SOL.publicKey,
      ),
    ).toBe(true)
    expect(result.isNewUser).toBe(false)
  })

  it("messageType 'transaction' posts a base64 memo transaction carrying the sign-in text, signed by the address", async () => {
    const { client, call } = setup()
    const signTransaction = transactionSigner()
    const wallet = solanaWallet({ signIn: signInCapable(), signTransaction })
    await signInWithSolana(client, wallet, { messageType: 'transaction' })

    const text = expectedText()
    const unsigned = buildMemoTransaction(SOL.address, text)
    expect(signTransaction).toHaveBeenCalledWith(unsigned)
    expect(wallet.signMessage).not.toHaveBeenCalled()

    const body = call('/api/v1/siws/authenticate')?.body as Record<string, string>
    expect(body.message_type).toBe('transaction')
    const transaction = base64.decode(body.message as string)
    const signature = base64.decode(body.signature as string)
    // One signature, in the slot after the count; the message after it is the unsigned one's.
    expect(transaction[0]).toBe(1)
    expect(transaction.slice(1, 65)).toEqual(signature)
    expect(transaction.slice(65)).toEqual(unsigned.slice(65))
    expect(ed25519.verify(signature, transaction.slice(65), SOL.publicKey)).toBe(true)
    // Account keys: the signer, then the memo program; the memo data is the sign-in text, at the end.
    const keysAt = 65 + 3
    expect(transaction[keysAt]).toBe(2)
    expect(base58.encode(transaction.slice(keysAt + 1, keysAt + 33))).toBe(SOL.address)
    expect(base58.encode(transaction.slice(keysAt + 33, keysAt + 65))).toBe(MEMO_PROGRAM_ID)
    const data = new TextEncoder().encode(text)
    expect(transaction.slice(-data.length)).toEqual(data)
    const length = compactU16(data.length)
    expect([...transaction.slice(-data.length - length.length, -data.length)]).toEqual(length)
  })

  it("messageType 'transaction' without a signTransaction wallet fails with UNSUPPORTED_METHOD", async () => {
    const { client, paths } = setup()
    await expect(
      signInWithSolana(client, solanaWallet(), { messageType: 'transaction' }),
    ).rejects.toMatchObject({ code: 'UNSUPPORTED_METHOD' })
    expect(paths()).not.toContain('/api/v1/siws/authenticate')
  })

  it("intent 'link' posts to the SIWS link route with the session and no mode", async () => {
    const { client, call, paths } = setup({ loggedIn: true })
    const result = await signInWithSolana(client, solanaWallet(), { intent: 'link' })
    expect(paths()).toEqual(['/api/v1/siws/init', '/api/v1/siws/link'])
    const link = call('/api/v1/siws/link')
    expect(link?.headers.authorization).toMatch(/^Bearer /)
    expect(link?.body).not.toHaveProperty('mode')
    expect(link?.body).toMatchObject({ message: expectedText(), message_type: 'plain' })
    expect(result.isNewUser).toBe(false)
    expect(client.session.getState().user?.linkedAccounts).toContainEqual(
      expect.objectContaining({ type: 'wallet', address: SOL.address, chainType: 'solana' }),
    )
  })
})
