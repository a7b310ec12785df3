import { routes, SMART_WALLET_VERSIONS, type SmartWalletType } from '@latchkey/protocol'
import { toSafeSmartAccount, toSimpleSmartAccount } from 'permissionless/accounts'
import {
  type Address,
  createPublicClient,
  createWalletClient,
  type Hex,
  http,
  type PublicClient,
} from 'viem'
import { entryPoint07Address } from 'viem/account-abstraction'
import { generatePrivateKey, type PrivateKeyAccount, privateKeyToAccount } from 'viem/accounts'
import type { AppSettings } from '../apps/service.ts'
import { siweMessage, siweNonce, WALLET_APP_SETTINGS } from '../auth/siwe/testing.ts'
import type { AccountAbstractionChain } from '../test/account-abstraction/index.ts'
import {
  getTestInstance,
  TEST_ORIGIN,
  type TestInstance,
  type TestResponse,
} from '../test/instance.ts'
import { hdBody } from '../test/wallets.ts'

/*
 * Helpers of the smart_wallet link tests (smart-wallets/link*.test.ts): a
 * server that verifies on the account-abstraction chain, users whose
 * embedded Ethereum wallet is a key the test holds, and their accounts.
 */

/**
 * An app with wallet login (routes.siweInit needs it) and smart wallets on
 * `chainId`; the bundler is never asked by a link.
 */
export function smartWalletAppSettings(
  chainId: number,
  bundlerUrl = 'http://127.0.0.1:9',
): AppSettings {
  return {
    ...WALLET_APP_SETTINGS,
    smart_wallets: { enabled: true, chains: [{ chain_id: chainId, bundler_url: bundlerUrl }] },
  }
}

/** A test server verifying on the account-abstraction chain, whose app has smart wallets there. */
export function linkTestInstance(aa: AccountAbstractionChain): Promise<TestInstance> {
  return getTestInstance({
    appSettings: smartWalletAppSettings(aa.chain.id, aa.bundlerUrl),
    chainRpcUrls: { [aa.chain.id]: aa.rpcUrl },
  })
}

export const publicClientOf = (aa: AccountAbstractionChain): PublicClient =>
  createPublicClient({ chain: aa.chain, transport: http(aa.rpcUrl), pollingInterval: 50 })

/** A signed-in user whose embedded Ethereum wallet is `owner` (a key the test holds). */
export interface LinkTestUser {
  token: string
  userId: string
  owner: PrivateKeyAccount
}

/**
 * Logs a new user in and gives them an embedded Ethereum wallet at the
 * address of a fresh key (the server stores the address the enclave sends).
 */
export async function userWithEmbeddedWallet(
  t: TestInstance,
  email: string,
): Promise<LinkTestUser> {
  const auth = await t.login(email, { enclaveKey: t.enclaveKey })
  const token = auth.token ?? ''
  const owner = privateKeyToAccount(generatePrivateKey())
  const body = hdBody()
  const created = await t.enclaveRequest(routes.embeddedWalletsCreate, {
    token,
    body: {
      ...body,
      entropy_id: owner.address.toLowerCase(),
      wallets: [{ chain_type: 'ethereum', address: owner.address.toLowerCase(), wallet_index: 0 }],
    },
  })
  if (created.status !== 200)
    throw new Error(`wallet creation failed: ${JSON.stringify(created.body)}`)
  return { token, userId: auth.user.id, owner }
}

/** Safe v1.4.1 (one owner, threshold 1) at its counterfactual address, as core builds it. */
export function safeOf(client: PublicClient, owner: PrivateKeyAccount, saltNonce = 0n) {
  return toSafeSmartAccount({
    client,
    owners: [owner],
    version: '1.4.1',
    saltNonce,
    entryPoint: { address: entryPoint07Address, version: '0.7' },
  })
}

/** SimpleAccount v0.7 of `owner` at salt `index`, as core builds it. */
export function simpleAccountOf(client: PublicClient, owner: PrivateKeyAccount, index = 0n) {
  return toSimpleSmartAccount({
    client,
    owner,
    index,
    entryPoint: { address: entryPoint07Address, version: '0.7' },
  })
}

/** Deploys a smart account by calling its factory (no user operation needed). */
export async function deploy(
  aa: AccountAbstractionChain,
  account: { getFactoryArgs(): Promise<{ factory?: Address; factoryData?: Hex }> },
): Promise<void> {
  const { factory, factoryData } = await account.getFactoryArgs()
  if (!factory || !factoryData) throw new Error('the account has no factory call')
  const wallet = createWalletClient({
    account: aa.deployer.account,
    chain: aa.chain,
    transport: http(aa.rpcUrl),
  })
  const hash = await wallet.sendTransaction({ to: factory, data: factoryData })
  await publicClientOf(aa).waitForTransactionReceipt({ hash, pollingInterval: 50 })
}

/** A SIWE message for `address` on the chain, on a fresh nonce from siweInit. */
export async function linkMessage(
  t: TestInstance,
  aa: AccountAbstractionChain,
  address: Address,
): Promise<string> {
  const nonce = await siweNonce(t, address)
  return siweMessage(t, address, nonce, { chainId: aa.chain.id })
}

/** POST routes.smartWalletLink from the app's origin. */
export function postLink(
  t: TestInstance,
  token: string | undefined,
  body: { message: string; signature: Hex; type: SmartWalletType; version?: string },
): Promise<TestResponse> {
  return t.request(routes.smartWalletLink, {
    body: {
      message: body.message,
      signature: body.signature,
      smart_wallet_type: body.type,
      smart_wallet_version: body.version ?? SMART_WALLET_VERSIONS[body.type],
    },
    origin: TEST_ORIGIN,
    ...(token ? { token } : {}),
  })
}

/** The user's smart_wallet accounts as /users/me shows them. */
export async function smartWalletsOf(t: TestInstance, token: string) {
  const me = await t.request(routes.usersMe, { token })
  // biome-ignore lint/suspicious/noExplicitAny: the wire is checked by the route's schema
  return me.body.user.linked_accounts.filter((a: any) => a.type === 'smart_wallet')
}
