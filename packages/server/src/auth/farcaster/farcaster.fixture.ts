import { FARCASTER_CHANNEL_TOKEN_HEADER, routes } from '@latchkey/protocol'
import type { Hex, LocalAccount } from 'viem'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import type { AppSettings } from '../../apps/service.ts'
import {
  getTestInstance,
  TEST_ORIGIN,
  type TestInstance,
  type TestResponse,
} from '../../test/instance.ts'
import {
  type FakeFarcasterRelay,
  type FarcasterChain,
  type SignInWithFarcasterAppParameters,
  signInWithFarcasterApp,
  startFakeFarcasterRelay,
  startFarcasterChain,
} from './testing.ts'

/*
 * Shared setup of the Farcaster tests: a Latchkey instance whose relay is the
 * local fake relay and whose ID registry is a real IdRegistry-shaped contract
 * on Anvil (chain id 10). Farcaster users are fresh custody keys with an fid
 * registered on that contract.
 */

export const FARCASTER_SETTINGS: AppSettings = { login_methods: { email: true, farcaster: true } }

/** A Farcaster account: its custody key and fid. */
export interface FarcasterUser {
  account: LocalAccount
  fid: number
}

/** What the browser posts to authenticate / link (plus `mode` for authenticate). */
export interface FarcasterProofBody {
  channel_token: string
  message: string
  signature: Hex
  fid: number
}

export interface FarcasterTestInstance extends TestInstance {
  relay: FakeFarcasterRelay
  chain: FarcasterChain
  /** A fresh custody key with a newly registered fid. */
  newFarcasterUser(): Promise<FarcasterUser>
  /** POST init from the app's page; throws unless 200. */
  init(options?: { appId?: string }): Promise<{ channel_token: string; connect_uri: string }>
  /** The status poll the browser makes. */
  status(channelToken: string, options?: { appId?: string }): Promise<TestResponse>
  /** The Farcaster app signs the channel's message for `user` (at the test clock's time). */
  sign(
    channelToken: string,
    user: FarcasterUser,
    options?: Partial<SignInWithFarcasterAppParameters>,
  ): Promise<{ message: string; signature: Hex }>
  /** init → the app signs → the proof body (no status poll). */
  proof(
    user: FarcasterUser,
    options?: Partial<SignInWithFarcasterAppParameters> & { appId?: string },
  ): Promise<FarcasterProofBody>
  authenticate(
    body: FarcasterProofBody & { mode?: string },
    options?: { appId?: string },
  ): Promise<TestResponse>
  /** Link as the user of `token` (an AuthResponse's token). */
  link(body: FarcasterProofBody, token: string | null): Promise<TestResponse>
}

export async function getFarcasterTestInstance(
  options: { appSettings?: AppSettings } = {},
): Promise<FarcasterTestInstance> {
  const relay = await startFakeFarcasterRelay()
  const chain = await startFarcasterChain()
  let t: TestInstance
  try {
    t = await getTestInstance({
      appSettings: options.appSettings ?? FARCASTER_SETTINGS,
      farcaster: {
        relayUrl: relay.url,
        optimismRpcUrl: chain.rpcUrl,
        idRegistryAddress: chain.idRegistryAddress,
      },
    })
  } catch (error) {
    await Promise.all([relay.close(), chain.stop()])
    throw error
  }
  const close = t.close
  const instance: FarcasterTestInstance = Object.assign(t, {
    relay,
    chain,
    async newFarcasterUser() {
      const account = privateKeyToAccount(generatePrivateKey())
      return { account, fid: await chain.register(account.address) }
    },
    async init(opts: { appId?: string } = {}) {
      const res = await t.request(routes.farcasterInit, {
        body: {},
        origin: TEST_ORIGIN,
        ...(opts.appId ? { appId: opts.appId } : {}),
      })
      if (res.status !== 200) throw new Error(`init failed: ${JSON.stringify(res.body)}`)
      return res.body
    },
    status(channelToken: string, opts: { appId?: string } = {}) {
      return t.request(routes.farcasterStatus, {
        method: 'GET',
        headers: { [FARCASTER_CHANNEL_TOKEN_HEADER]: channelToken },
        origin: TEST_ORIGIN,
        ...(opts.appId ? { appId: opts.appId } : {}),
      })
    },
    sign(
      channelToken: string,
      user: FarcasterUser,
      opts: Partial<SignInWithFarcasterAppParameters> = {},
    ) {
      return signInWithFarcasterApp({
        relayUrl: relay.url,
        channelToken,
        account: user.account,
        fid: user.fid,
        now: t.clock.now(),
        ...opts,
      })
    },
    async proof(
      user: FarcasterUser,
      opts: Partial<SignInWithFarcasterAppParameters> & { appId?: string } = {},
    ) {
      const { appId, ...signOptions } = opts
      const { channel_token } = await instance.init(appId ? { appId } : {})
      const signed = await instance.sign(channel_token, user, signOptions)
      return { channel_token, ...signed, fid: user.fid }
    },
    authenticate(body: FarcasterProofBody & { mode?: string }, opts: { appId?: string } = {}) {
      return t.request(routes.farcasterAuthenticate, {
        body,
        origin: TEST_ORIGIN,
        ...(opts.appId ? { appId: opts.appId } : {}),
      })
    },
    link(body: FarcasterProofBody, token: string | null) {
      return t.request(routes.farcasterLink, {
        body,
        token: token ?? undefined,
        origin: TEST_ORIGIN,
      })
    },
    async close() {
      await close()
      await Promise.all([relay.close(), chain.stop()])
    },
  })
  return instance
}
