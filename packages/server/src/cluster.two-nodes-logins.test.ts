import { createHash, randomBytes } from 'node:crypto'
import { FARCASTER_CHANNEL_TOKEN_HEADER, routes } from '@latchkey/protocol'
import { base64 } from '@scure/base'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  type FakeFarcasterRelay,
  type FarcasterChain,
  signInWithFarcasterApp,
  startFakeFarcasterRelay,
  startFarcasterChain,
} from './auth/farcaster/testing.ts'
import { passkeyAssertionBody, SoftwareAuthenticator } from './auth/passkey/testing.ts'
import { signInText, solanaKeypair } from './auth/siws/testing.ts'
import {
  type Deployment,
  missingClusterServices,
  type ClusterNode as Node,
  CLUSTER_ORIGIN as ORIGIN,
  startDeployment,
} from './test/cluster.ts'
import { startTestOidcProvider, type TestOidcProvider } from './test/oidc.ts'

// Tracker issue 20, item 1, the login flows of cluster.two-nodes.test.ts's
// deployment (two server processes, one PostgreSQL schema, one Redis): OAuth,
// SIWS, passkey and the Farcaster channel, each step on the other node. What
// a flow keeps between its steps (the OAuth state, the SIWS nonce, the passkey
// challenge, the Farcaster channel and what the relay said of it) must be in
// the database, never in one node's memory.
const REDIRECT_TO = `${ORIGIN}/login`
const missing = await missingClusterServices('cluster.two-nodes-logins.test.ts')

let deployment: Deployment
let a: Node
let b: Node
let oidc: TestOidcProvider
let relay: FakeFarcasterRelay
let chain: FarcasterChain
const call: Deployment['call'] = (...args) => deployment.call(...args)

describe.skipIf(missing.length > 0)('login flows across two nodes', () => {
  beforeAll(async () => {
    ;[oidc, relay, chain] = await Promise.all([
      startTestOidcProvider({
        redirectUris: [REDIRECT_TO],
        accounts: [{ sub: 'ada-sub', email: 'ada@example.com', email_verified: true }],
      }),
      startFakeFarcasterRelay(),
      startFarcasterChain(),
    ])
    deployment = await startDeployment({
      // The OpenID provider stamps its id_tokens with the real time.
      startAt: Date.now(),
      node: {
        appSettings: { login_methods: { google: true, passkey: true, farcaster: true } },
        oauth: { endpoints: { google: oidc.endpoints } },
        providerCredentials: [
          { provider: 'google', client_id: oidc.clientId, client_secret: oidc.clientSecret },
        ],
        farcaster: {
          relayUrl: relay.url,
          optimismRpcUrl: chain.rpcUrl,
          idRegistryAddress: chain.idRegistryAddress,
        },
      },
    })
    ;[a, b] = deployment.nodes as [Node, Node]
  }, 180_000)

  afterAll(async () => {
    await deployment?.stop()
    await Promise.all([oidc?.close(), relay?.close(), chain?.stop()])
  }, 30_000)

  it('OAuth: init on A, the provider’s code redeemed on B; the state is refused on A after', async () => {
    // What the host page makes (RFC 7636 S256, and a 128-bit state).
    const verifier = randomBytes(32).toString('base64url')
    const challenge = createHash('sha256').update(verifier).digest('base64url')
    const state = randomBytes(16).toString('base64url')
    const init = await call(a, routes.oauthInit, {
      body: {
        provider: 'google',
        redirect_to: REDIRECT_TO,
        code_challenge: challenge,
        state_code: state,
      },
    })
    expect(init.status).toBe(200)
    // The state is a database row: B refuses to record it a second time.
    const again = await call(b, routes.oauthInit, {
      body: {
        provider: 'google',
        redirect_to: REDIRECT_TO,
        code_challenge: challenge,
        state_code: state,
      },
    })
    expect(again.body.code).toBe('OAUTH_STATE_MISMATCH')
    const back = await oidc.authorize(init.body.url, { accountId: 'ada-sub' })
    const body = {
      provider: 'google',
      authorization_code: back.searchParams.get('code'),
      state_code: back.searchParams.get('state'),
      code_verifier: verifier,
      mode: 'login-or-sign-up',
    }
    // B checks A's PKCE challenge and the id_token's nonce (derived from the state with the shared master key).
    const login = await call(b, routes.oauthAuthenticate, { body })
    expect(login.status).toBe(200)
    expect(login.body.user.linked_accounts).toEqual([
      expect.objectContaining({ type: 'google', subject: 'ada-sub' }),
    ])
    expect(await call(a, routes.oauthAuthenticate, { body })).toMatchObject({
      status: 400,
      body: { code: 'OAUTH_STATE_MISMATCH' },
    })
  })

  it('SIWS: sign-in input from A, signature verified on B; the replay on A is refused', async () => {
    const keypair = solanaKeypair()
    const init = await call(a, routes.siwsInit, { body: { address: keypair.address } })
    expect(init.status).toBe(200)
    const message = signInText(init.body.sign_in_input)
    const body = {
      message,
      signature: base64.encode(keypair.sign(new TextEncoder().encode(message))),
      wallet_client_type: 'phantom',
      connector_type: 'solana_adapter',
    }
    expect((await call(b, routes.siwsAuthenticate, { body })).status).toBe(200)
    expect((await call(a, routes.siwsAuthenticate, { body })).body).toMatchObject({
      code: 'WALLET_LOGIN_FAILED',
      details: { reason: 'nonce_used' },
    })
  })

  it('passkey: registered A → B, logged in B → A; each challenge works once, on either node', async () => {
    const authenticator = new SoftwareAuthenticator()
    const register = await call(a, routes.passkeyRegisterInit, { body: {} })
    expect(register.status).toBe(200)
    const created = {
      relying_party: register.body.relying_party,
      authenticator_response: authenticator.create({
        rpId: register.body.relying_party,
        challenge: register.body.options.challenge,
        origin: ORIGIN,
        userHandle: register.body.options.user.id,
      }),
    }
    const signUp = await call(b, routes.passkeyRegister, { body: created })
    expect(signUp.status).toBe(200)
    expect((await call(a, routes.passkeyRegister, { body: created })).body).toMatchObject({
      code: 'PASSKEY_VERIFICATION_FAILED',
      details: { reason: 'challenge_used' },
    })

    const options = await call(b, routes.passkeyAuthenticateInit, { body: {} })
    expect(options.status).toBe(200)
    const assertion = passkeyAssertionBody(authenticator, options.body)
    const login = await call(a, routes.passkeyAuthenticate, { body: assertion })
    expect(login.status).toBe(200)
    expect(login.body.user.id).toBe(signUp.body.user.id)
    expect((await call(b, routes.passkeyAuthenticate, { body: assertion })).body).toMatchObject({
      code: 'PASSKEY_VERIFICATION_FAILED',
      details: { reason: 'challenge_used' },
    })
  })

  it('Farcaster: channel opened on A, polled on B until completed, polled again and logged in on A', async () => {
    const custody = privateKeyToAccount(generatePrivateKey())
    const fid = await chain.register(custody.address)
    const init = await call(a, routes.farcasterInit, { body: {} })
    expect(init.status).toBe(200)
    const channelToken: string = init.body.channel_token
    const status = (node: Node) =>
      call(node, routes.farcasterStatus, {
        headers: { [FARCASTER_CHANNEL_TOKEN_HEADER]: channelToken },
      })
    expect((await status(b)).body).toEqual({ state: 'pending' })
    const signed = await signInWithFarcasterApp({
      relayUrl: relay.url,
      channelToken,
      account: custody,
      fid,
      profile: { username: 'ada', displayName: 'Ada' },
      now: deployment.now(),
    })
    const completed = await status(b)
    expect(completed.body).toMatchObject({ state: 'completed', fid, username: 'ada' })
    // The relay forgets a channel once it reported it completed: A answers from the database.
    expect(relay.channel(channelToken)).toBeUndefined()
    expect((await status(a)).body).toEqual(completed.body)
    const body = { channel_token: channelToken, ...signed, fid, mode: 'login-or-sign-up' }
    const login = await call(a, routes.farcasterAuthenticate, { body })
    expect(login.status).toBe(200)
    // The profile is the relay's (as B read it), never the browser's.
    expect(login.body.user.linked_accounts).toEqual([
      expect.objectContaining({ type: 'farcaster', fid, username: 'ada', display_name: 'Ada' }),
    ])
    expect(await call(b, routes.farcasterAuthenticate, { body })).toMatchObject({
      status: 400,
      body: { code: 'AUTHENTICATION_FAILED', details: { reason: 'channel_used' } },
    })
    expect((await status(b)).body.details?.reason).toBe('channel_used')
  })
})
