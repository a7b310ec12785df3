import { Header } from '@latchkey/protocol/constants'
import { routes } from '@latchkey/protocol/routes'
import type { AuthenticationResponseJSON, RegistrationResponseJSON } from '@simplewebauthn/browser'
import { mainnet } from 'viem/chains'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { createLatchkeyClient, type LatchkeyClient } from '../client.ts'
import { signInWithEthereum, signInWithSolana } from '../external/sign-in.ts'
import type {
  ConnectedEthereumExternalWallet,
  ConnectedSolanaExternalWallet,
} from '../external/types.ts'
import { ENCLAVE_KEY_WAIT_MS } from '../session-key.ts'
import { createMemoryStorage } from '../storage.ts'
import {
  APP_ID,
  authResponse,
  createFakeFetch,
  json,
  type RecordedCall,
} from '../test/fake-server.ts'
import { loginWithCustomJwt } from './customAuth.ts'
import { loginWithEmailCode } from './email.ts'
import { loginWithFarcaster } from './farcaster.ts'
import { loginAsGuest } from './guest.ts'
import { completeOAuth } from './oauth.ts'
import { loginWithPasskey, type PasskeyCeremonies, signupWithPasskey } from './passkey.ts'
import { loginWithSmsCode } from './sms.ts'
import { loginWithTelegram } from './telegram.ts'

// docs/security.md "Key routes answer only to the enclave": the server binds
// a session to the enclave's device key only on the login that creates it,
// so every login sends the key's thumbprint; and a slow or broken enclave
// holds a login up for ENCLAVE_KEY_WAIT_MS at most.

const JKT = 'NzbLsXh8uDCcd-6MNwXF4W_7noWXFZAfHkxZsRGC9Xs'
const exp = Math.floor(Date.now() / 1000) + 3600
const PAGE = { host: 'app.test', origin: 'https://app.test' }
const SOLANA_ADDRESS = 'So1ana1111111111111111111111111111111111111'

const ceremonies: PasskeyCeremonies = {
  isSupported: () => true,
  create: async () =>
    ({
      id: 'c',
      rawId: 'c',
      type: 'public-key',
      response: { clientDataJSON: 'a', attestationObject: 'b' },
      clientExtensionResults: {},
    }) as RegistrationResponseJSON,
  get: async () =>
    ({
      id: 'c',
      rawId: 'c',
      type: 'public-key',
      response: { clientDataJSON: 'a', authenticatorData: 'b', signature: 'c' },
      clientExtensionResults: {},
    }) as AuthenticationResponseJSON,
  cancel: () => {},
}

const ethereumWallet = {
  type: 'ethereum',
  address: '0x1111111111111111111111111111111111111111',
  chainId: 'eip155:1',
  walletClientType: 'metamask',
  connectorType: 'injected',
  getEthereumProvider: () => ({ request: async () => `0x${'11'.repeat(65)}` }),
} as unknown as ConnectedEthereumExternalWallet

const solanaWallet = {
  type: 'solana',
  address: SOLANA_ADDRESS,
  chainId: null,
  walletClientType: 'phantom',
  connectorType: 'solana_adapter',
  signMessage: async () => new Uint8Array(64),
} as unknown as ConnectedSolanaExternalWallet

/** Every login, with the request that creates its session. */
const logins: Array<[string, string, (client: LatchkeyClient) => Promise<unknown>]> = [
  [
    'email',
    routes.emailAuthenticate,
    (c) => loginWithEmailCode(c, { email: 'a@example.com', code: '123456' }),
  ],
  [
    'sms',
    routes.smsAuthenticate,
    (c) => loginWithSmsCode(c, { phoneNumber: '+14155552671', code: '123456' }),
  ],
  [
    'oauth',
    routes.oauthAuthenticate,
    (c) =>
      completeOAuth(c, {
        ok: true,
        provider: 'google',
        intent: 'login',
        ui: 'modal',
        disableSignup: false,
        authorizationCode: 'code',
        stateCode: 'state',
        codeVerifier: 'verifier',
      }),
  ],
  ['passkey login', routes.passkeyAuthenticate, (c) => loginWithPasskey(c, { ceremonies })],
  ['passkey sign-up', routes.passkeyRegister, (c) => signupWithPasskey(c, { ceremonies })],
  [
    'telegram',
    routes.telegramAuthenticate,
    (c) => loginWithTelegram(c, { telegramWebAppData: 'query_id=1&hash=abc' }),
  ],
  [
    'farcaster',
    routes.farcasterAuthenticate,
    (c) => loginWithFarcaster(c, { channelToken: 't', message: 'm', signature: '0x1', fid: 1 }),
  ],
  ['guest', routes.guestAuthenticate, (c) => loginAsGuest(c)],
  ['custom auth', routes.customJwtAuthenticate, (c) => loginWithCustomJwt(c, { token: 'jwt' })],
  [
    'SIWE',
    routes.siweAuthenticate,
    (c) =>
      signInWithEthereum(c, ethereumWallet, {
        chains: [mainnet],
        defaultChain: mainnet,
        location: PAGE,
      }),
  ],
  ['SIWS', routes.siwsAuthenticate, (c) => signInWithSolana(c, solanaWallet, { location: PAGE })],
]

/** Answers each login's first step (nonce, challenge), and a session for the rest. */
function answer(call: RecordedCall) {
  const path = new URL(call.url).pathname
  if (path === routes.passkeyAuthenticateInit || path === routes.passkeyRegisterInit)
    return json(200, { relying_party: 'app.test', options: { challenge: 'ch', rpId: 'app.test' } })
  if (path === routes.siweInit)
    return json(200, { nonce: 'n0nce1234567890', address: '', expires_at: Date.now() + 60_000 })
  if (path === routes.siwsInit)
    return json(200, {
      nonce: 'n0nce1234567890',
      address: SOLANA_ADDRESS,
      expires_at: Date.now() + 60_000,
      sign_in_input: {
        domain: PAGE.host,
        address: SOLANA_ADDRESS,
        uri: PAGE.origin,
        version: '1',
        chain_id: 'mainnet',
        nonce: 'n0nce1234567890',
        issued_at: new Date().toISOString(),
      },
    })
  return json(200, authResponse({ exp }))
}

function setup() {
  const fake = createFakeFetch(answer)
  const client = createLatchkeyClient({
    appId: APP_ID,
    apiUrl: 'http://api.test',
    fetch: fake.fetch,
    storage: createMemoryStorage(),
    cookies: { get: () => null, set: () => {}, remove: () => {} },
    http: { sleep: async () => {}, maxRetries: 0 },
  })
  const sent = (path: string) => fake.calls.filter((c) => new URL(c.url).pathname === path)
  return { client, calls: fake.calls, sent }
}

afterEach(() => {
  vi.useRealTimers()
  vi.restoreAllMocks()
})

describe('every login binds its session to the enclave key', () => {
  it.each(logins)(
    '%s sends latchkey-enclave-key on its login request only',
    async (_, path, login) => {
      const { client, calls, sent } = setup()
      client.setSessionKeyProvider(async () => JKT)
      await login(client)
      expect(sent(path).map((c) => c.headers[Header.enclaveKey])).toEqual([JKT])
      // Its first steps (captcha, nonce, challenge) create no session.
      const others = calls.filter((c) => new URL(c.url).pathname !== path)
      for (const call of others) expect(call.headers[Header.enclaveKey]).toBeUndefined()
    },
  )

  it.each(logins)('%s sends no key without a provider', async (_, path, login) => {
    const { client, sent } = setup()
    await login(client)
    expect(sent(path)).toHaveLength(1)
    expect(sent(path)[0]?.headers[Header.enclaveKey]).toBeUndefined()
  })

  it('a refresh does not send it (a session is bound once, at login)', async () => {
    const { client, sent } = setup()
    client.setSessionKeyProvider(async () => JKT)
    await loginAsGuest(client)
    await client.session.refresh()
    expect(sent(routes.sessionRefresh)[0]?.headers[Header.enclaveKey]).toBeUndefined()
  })
})

describe('the wait for the enclave key is bounded', () => {
  it('a provider that never answers holds a login up for ENCLAVE_KEY_WAIT_MS, then it goes ahead without the key', async () => {
    vi.useFakeTimers()
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {})
    const { client, sent } = setup()
    client.setSessionKeyProvider(() => new Promise(() => {}))
    const login = loginWithCustomJwt(client, { token: 'jwt' })
    await vi.advanceTimersByTimeAsync(ENCLAVE_KEY_WAIT_MS - 1)
    expect(sent(routes.customJwtAuthenticate)).toHaveLength(0)
    await vi.advanceTimersByTimeAsync(1)
    await login
    expect(sent(routes.customJwtAuthenticate)[0]?.headers[Header.enclaveKey]).toBeUndefined()
    expect(warn).toHaveBeenCalledTimes(1)
    expect(String(warn.mock.calls[0]?.[0])).toContain('timeout')
  })

  it.each([
    ['fails', () => Promise.reject(new Error('no enclave'))],
    [
      'throws',
      () => {
        throw new Error('no enclave')
      },
    ],
    ['has no key', async () => null],
  ])('a provider that %s does not stop the login; it warns once', async (_, provider) => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {})
    const { client, sent } = setup()
    client.setSessionKeyProvider(provider as () => Promise<string | null>)
    await loginWithCustomJwt(client, { token: 'jwt' })
    await loginWithCustomJwt(client, { token: 'jwt-2' })
    expect(sent(routes.customJwtAuthenticate)).toHaveLength(2)
    for (const call of sent(routes.customJwtAuthenticate))
      expect(call.headers[Header.enclaveKey]).toBeUndefined()
    expect(warn).toHaveBeenCalledTimes(1)
  })

  it('a removed provider is not asked again', async () => {
    const { client, sent } = setup()
    const provider = vi.fn(async () => JKT)
    client.setSessionKeyProvider(provider)
    client.setSessionKeyProvider(null)
    await loginAsGuest(client)
    expect(provider).not.toHaveBeenCalled()
    expect(sent(routes.guestAuthenticate)[0]?.headers[Header.enclaveKey]).toBeUndefined()
  })
})
