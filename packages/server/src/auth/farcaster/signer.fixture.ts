import { routes } from '@latchkey/protocol'
import { ed25519 } from '@noble/curves/ed25519.js'
import { bytesToHex, type Hex, type LocalAccount } from 'viem'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { type FakeFarcasterApi, startFakeFarcasterApi } from '../../test/fake-farcaster-api.ts'
import {
  getTestInstance,
  TEST_ORIGIN,
  type TestInstance,
  type TestResponse,
} from '../../test/instance.ts'
import { FARCASTER_SETTINGS } from './farcaster.fixture.ts'
import {
  type FakeFarcasterRelay,
  type FarcasterChain,
  signInWithFarcasterApp,
  startFakeFarcasterRelay,
  startFarcasterChain,
} from './testing.ts'

/*
 * Shared setup of the Farcaster signer tests: a Latchkey instance whose
 * Farcaster sign-in runs against the local relay and an IdRegistry on Anvil,
 * and whose Farcaster API (`farcaster.apiUrl`) is the local fake that checks
 * SignedKeyRequest signatures against the app's custody address.
 */

/** The app's requesting fid in these tests. */
export const APP_FID = 9_152

export interface SignerUser {
  token: string
  userId: string
  fid: number
}

export interface SignerTestInstance extends TestInstance {
  api: FakeFarcasterApi
  relay: FakeFarcasterRelay
  chain: FarcasterChain
  /** The app's custody key (the one set as the app's farcaster-signer credential). */
  appCustody: LocalAccount
  appCustodyKey: Hex
  /** Sets the app's farcaster-signer credential (requesting fid and custody key). */
  configure(custodyKey?: string): Promise<void>
  /** A user logged in by email, bound to the instance's enclave key, with a Farcaster account linked. */
  farcasterUser(email: string): Promise<SignerUser>
  /** The enclave's init call (proof-bound) for `key`. */
  init(token: string, key: Hex, options?: { proof?: null }): Promise<TestResponse>
  /** The host's status poll for `key`. */
  status(token: string, key: Hex): Promise<TestResponse>
}

/** A fresh ed25519 public key (0x hex), as the enclave makes one. */
export function newSignerKey(): Hex {
  return bytesToHex(ed25519.getPublicKey(ed25519.utils.randomSecretKey()))
}

export async function getSignerTestInstance(): Promise<SignerTestInstance> {
  const appCustodyKey = generatePrivateKey()
  const appCustody = privateKeyToAccount(appCustodyKey)
  const relay = await startFakeFarcasterRelay()
  const chain = await startFarcasterChain()
  const api = await startFakeFarcasterApi({ custody: { [APP_FID]: appCustody.address } })
  let t: TestInstance
  try {
    t = await getTestInstance({
      appSettings: FARCASTER_SETTINGS,
      farcaster: {
        relayUrl: relay.url,
        optimismRpcUrl: chain.rpcUrl,
        idRegistryAddress: chain.idRegistryAddress,
        apiUrl: api.url,
      },
    })
  } catch (error) {
    await Promise.all([relay.close(), chain.stop(), api.close()])
    throw error
  }
  const close = t.close
  return Object.assign(t, {
    api,
    relay,
    chain,
    appCustody,
    appCustodyKey,
    async configure(custodyKey?: string) {
      await t.server.setAppProviderCredentials(t.app.id, {
        provider: 'farcaster-signer',
        request_fid: String(APP_FID),
        custody_key: custodyKey ?? appCustodyKey,
      })
    },
    async farcasterUser(email: string) {
      const session = await t.login(email, { enclaveKey: t.enclaveKey })
      const token = session.token ?? ''
      const account = privateKeyToAccount(generatePrivateKey())
      const fid = await chain.register(account.address)
      const init = await t.request(routes.farcasterInit, { body: {}, origin: TEST_ORIGIN })
      const channelToken: string = init.body.channel_token
      const signed = await signInWithFarcasterApp({
        relayUrl: relay.url,
        channelToken,
        account,
        fid,
        now: t.clock.now(),
      })
      const linked = await t.request(routes.farcasterLink, {
        body: { channel_token: channelToken, ...signed, fid },
        token,
        origin: TEST_ORIGIN,
      })
      if (linked.status !== 200) throw new Error(`link failed: ${JSON.stringify(linked.body)}`)
      return { token, userId: session.user.id, fid }
    },
    init(token: string, key: Hex, options: { proof?: null } = {}) {
      return t.enclaveRequest(routes.farcasterSignerInit, {
        token,
        body: { ed25519_public_key: key },
        ...options,
      })
    },
    status(token: string, key: Hex) {
      return t.request(routes.farcasterSignerStatus, {
        body: { ed25519_public_key: key },
        token,
        origin: TEST_ORIGIN,
      })
    },
    async close() {
      await close()
      await Promise.all([relay.close(), chain.stop(), api.close()])
    },
  })
}
