// @vitest-environment node
// linkSmartWallet against the real Latchkey server (in process) verifying on
// a real chain: Anvil with Safe v1.4.1 and SimpleAccountFactory v0.7 at their
// public addresses. The smart account signs the SIWE message the server then
// checks (ERC-6492 for an undeployed Safe; the owner for a SimpleAccount).

import { randomBytes } from 'node:crypto'
import { routes } from '@latchkey/protocol/routes'
import { getTestInstance, TEST_ORIGIN, type TestInstance } from '@latchkey/server/test'
import {
  type AccountAbstractionChain,
  sharedAccountAbstractionChain,
} from '@latchkey/server/test/account-abstraction'
import { createPublicClient, http, type PublicClient } from 'viem'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createLatchkeyClient, type LatchkeyClient } from '../client.ts'
import { createMemoryStorage } from '../storage.ts'
import { linkSmartWallet } from './link.ts'
import { toSmartWalletAccount } from './toSmartWalletAccount.ts'

const PAGE = { host: new URL(TEST_ORIGIN).host, origin: TEST_ORIGIN }
const b64url = (bytes: number) => randomBytes(bytes).toString('base64url')

let aa: AccountAbstractionChain
let t: TestInstance
let publicClient: PublicClient

beforeAll(async () => {
  aa = await sharedAccountAbstractionChain()
  t = await getTestInstance({
    appSettings: {
      login_methods: { email: true, wallet: true },
      smart_wallets: {
        enabled: true,
        chains: [{ chain_id: aa.chain.id, bundler_url: aa.bundlerUrl }],
      },
    },
    chainRpcUrls: { [aa.chain.id]: aa.rpcUrl },
  })
  // The client stamps its messages with the real time.
  t.clock.set(Date.now())
  publicClient = createPublicClient({ chain: aa.chain, transport: http(aa.rpcUrl) })
}, 120_000)
afterAll(async () => {
  await t?.close()
  await aa?.stop()
})

/** A logged-in core client whose user's embedded Ethereum wallet is `owner`. */
async function loggedInClient(email: string) {
  const auth = await t.login(email, { enclaveKey: t.enclaveKey })
  const owner = privateKeyToAccount(generatePrivateKey())
  const address = owner.address.toLowerCase()
  const created = await t.enclaveRequest(routes.embeddedWalletsCreate, {
    token: auth.token ?? '',
    body: {
      entropy_id: address,
      entropy_type: 'hd',
      auth_share: b64url(33),
      recovery: { method: 'latchkey', ciphertext: b64url(61), recovery_key: b64url(32) },
      wallets: [{ chain_type: 'ethereum', address, wallet_index: 0 }],
    },
  })
  expect(created.status).toBe(200)
  const client: LatchkeyClient = createLatchkeyClient({
    appId: t.app.id,
    apiUrl: t.ownOrigin,
    // The host page's requests carry its origin.
    fetch: async (input, init) => {
      const request = new Request(input, init)
      request.headers.set('origin', TEST_ORIGIN)
      return t.server.app.fetch(request)
    },
    storage: createMemoryStorage(),
    cookies: { get: () => null, set() {}, remove() {} },
  })
  client.session.applyAuthResponse(auth)
  return { client, owner }
}

describe('linkSmartWallet', { timeout: 60_000 }, () => {
  it('links an undeployed Safe, and the session holds the updated user', async () => {
    const { client, owner } = await loggedInClient('core-safe@example.com')
    const { account, type, version } = await toSmartWalletAccount({
      client: publicClient,
      owner,
      type: 'safe',
    })
    const user = await linkSmartWallet(client, {
      account,
      type,
      version,
      chainId: aa.chain.id,
      location: PAGE,
    })
    const linked = {
      type: 'smart_wallet',
      address: account.address,
      smartWalletType: 'safe',
      smartWalletVersion: '1.4.1',
    }
    expect(user.linkedAccounts).toContainEqual(expect.objectContaining(linked))
    expect(client.session.getState().user?.linkedAccounts).toContainEqual(
      expect.objectContaining(linked),
    )
    expect(await publicClient.getCode({ address: account.address })).toBeUndefined()
  })

  it('links a SimpleAccount with its owner’s signature, and needs the owner', async () => {
    const { client, owner } = await loggedInClient('core-simple@example.com')
    const { account, type, version } = await toSmartWalletAccount({
      client: publicClient,
      owner,
      type: 'simple',
    })
    const parameters = { account, type, version, chainId: aa.chain.id, location: PAGE }
    await expect(linkSmartWallet(client, parameters)).rejects.toMatchObject({
      code: 'UNSUPPORTED_METHOD',
    })
    const user = await linkSmartWallet(client, { ...parameters, owner })
    expect(user.linkedAccounts).toContainEqual(
      expect.objectContaining({ type: 'smart_wallet', address: account.address }),
    )
  })
})
