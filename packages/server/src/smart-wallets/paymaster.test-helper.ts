import { Header, routes, SMART_WALLET_VERSIONS, type SmartWalletType } from '@latchkey/protocol'
import { createSmartAccountClient } from 'permissionless'
import { toSimpleSmartAccount } from 'permissionless/accounts'
import {
  type Address,
  createPublicClient,
  type Hex,
  http,
  numberToHex,
  type PublicClient,
  type Transport,
} from 'viem'
import {
  createPaymasterClient,
  entryPoint07Address,
  type SmartAccount,
  type UserOperationReceipt,
} from 'viem/account-abstraction'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { updateAppSettings } from '../apps/service.ts'
import { newId } from '../ids.ts'
import {
  type AccountAbstractionChain,
  deployVerifyingPaymaster07,
} from '../test/account-abstraction/index.ts'
import type { TestInstance, TestResponse } from '../test/instance.ts'
import { ensurePaymasterSigner } from './paymaster-key.ts'
import type { SmartWalletSettings, SponsorshipPolicy } from './settings.ts'

/*
 * Helpers of the paymaster and RPC route tests (paymaster.*.test.ts,
 * rpc.*.test.ts): the app's signer and its deployed VerifyingPaymaster, the
 * smart_wallet link written as the link route writes it, and a smart
 * account client whose bundler and paymaster are the server's route.
 */

/** Turns smart wallets on for the test app (the app cache forgets it, so the next request sees them). */
export async function setSmartWallets(
  t: TestInstance,
  settings: SmartWalletSettings,
  appId = t.app.id,
): Promise<void> {
  await updateAppSettings(t.db, appId, { smart_wallets: settings })
  t.server.services.apps.invalidate(appId)
}

/**
 * The app's paymaster signer, a VerifyingPaymaster v0.7 deployed with it
 * (10 ETH deposit), and the app's settings on the chain with `policy`.
 */
export async function sponsorOnChain(
  t: TestInstance,
  aa: AccountAbstractionChain,
  policy?: SponsorshipPolicy,
): Promise<{ paymaster: Address; signer: Address }> {
  const { address: signer } = await ensurePaymasterSigner(t.server.services, t.app.id)
  const { address: paymaster } = await deployVerifyingPaymaster07(aa.deployer, {
    verifyingSigner: signer,
  })
  await setSmartWallets(t, {
    enabled: true,
    type: 'simple',
    chains: [
      {
        chain_id: aa.chain.id,
        bundler_url: aa.bundlerUrl,
        paymaster: { kind: 'server', address: paymaster },
      },
    ],
    ...(policy ? { sponsorship_policy: policy } : {}),
  })
  return { paymaster, signer }
}

/** Links `address` as the user's smart wallet, as the link route stores it (smart-wallets/link.ts). */
export async function linkSmartWalletRow(
  t: TestInstance,
  userId: string,
  address: Address,
  type: SmartWalletType = 'simple',
  appId = t.app.id,
): Promise<void> {
  const now = t.clock.now()
  await t.db
    .insertInto('linked_accounts')
    .values({
      id: newId(),
      user_id: userId,
      app_id: appId,
      type: 'smart_wallet',
      identifier: address.toLowerCase(),
      data: JSON.stringify({
        address,
        smart_wallet_type: type,
        smart_wallet_version: SMART_WALLET_VERSIONS[type],
      }),
      created_at: now,
      first_verified_at: now,
      latest_verified_at: now,
    })
    .execute()
}

/** One JSON-RPC request to the route, as the browser sends it. */
export function smartWalletRpcRequest(
  t: TestInstance,
  options: { token?: string; chainId: number; method: string; params?: unknown[]; appId?: string },
): Promise<TestResponse> {
  return t.request(routes.smartWalletRpc(options.chainId), {
    ...(options.token !== undefined ? { token: options.token } : {}),
    ...(options.appId !== undefined ? { appId: options.appId } : {}),
    body: { jsonrpc: '2.0', id: 1, method: options.method, params: options.params ?? [] },
  })
}

/** viem's http transport to the route, calling the server in process with the user's current token. */
export function routeTransport(t: TestInstance, token: () => string, chainId: number): Transport {
  return http(`http://latchkey.test${routes.smartWalletRpc(chainId)}`, {
    fetchFn: async (input, init) => {
      const headers = new Headers(init?.headers)
      headers.set('authorization', `Bearer ${token()}`)
      headers.set(Header.appId, t.app.id)
      return t.server.app.request(input as string, { ...init, headers })
    },
  })
}

export const publicClientOf = (aa: AccountAbstractionChain): PublicClient =>
  createPublicClient({ chain: aa.chain, transport: http(aa.rpcUrl), pollingInterval: 50 })

/**
 * What the tests use of permissionless's smart account client (written out:
 * its full type costs the type checker minutes, see core's createSmartWalletClient).
 */
export interface RouteSmartAccountClient {
  account: SmartAccount
  sendUserOperation(parameters: {
    calls: ReadonlyArray<{ to: Address; value?: bigint; data?: Hex }>
  }): Promise<Hex>
  waitForUserOperationReceipt(parameters: { hash: Hex }): Promise<UserOperationReceipt>
}

/**
 * A signed-in user with a new SimpleAccount v0.7 (a fresh owner key, never
 * funded) linked as their smart wallet, and a client whose bundler and
 * paymaster are the server's route.
 */
export async function userWithSmartAccount(
  t: TestInstance,
  aa: AccountAbstractionChain,
  email: string,
): Promise<{
  userId: string
  client: RouteSmartAccountClient
  /** Logs in again (a new access token for the client), e.g. after the test clock jumped. */
  login(): Promise<void>
}> {
  const auth = await t.login(email)
  let token = auth.token ?? ''
  const publicClient = publicClientOf(aa)
  const account = await toSimpleSmartAccount({
    client: publicClient,
    owner: privateKeyToAccount(generatePrivateKey()),
    entryPoint: { address: entryPoint07Address, version: '0.7' },
  })
  await linkSmartWalletRow(t, auth.user.id, account.address)
  const transport = routeTransport(t, () => token, aa.chain.id)
  const client = createSmartAccountClient({
    account,
    chain: aa.chain,
    client: publicClient,
    bundlerTransport: transport,
    paymaster: createPaymasterClient({ transport }),
    pollingInterval: 50,
  } as never) as unknown as RouteSmartAccountClient
  const login = async () => {
    token = (await t.login(email)).token ?? ''
  }
  return { userId: auth.user.id, client, login }
}

/** Sends the calls as one user operation and waits for its receipt. */
export async function sendCalls(
  client: RouteSmartAccountClient,
  calls: ReadonlyArray<{ to: Address; value?: bigint; data?: Hex }>,
): Promise<UserOperationReceipt> {
  const hash = await client.sendUserOperation({ calls })
  return client.waitForUserOperationReceipt({ hash })
}

/** A v0.7 user operation in RPC form with its gas fields, for route tests that need no chain. */
export function rpcUserOperation(sender: Address, nonce: bigint, callData: Hex = '0x') {
  return {
    sender,
    nonce: numberToHex(nonce),
    callData,
    callGasLimit: numberToHex(100_000n),
    verificationGasLimit: numberToHex(300_000n),
    preVerificationGas: numberToHex(50_000n),
    maxFeePerGas: numberToHex(1_000_000_000n),
    maxPriorityFeePerGas: numberToHex(1_000_000n),
    signature: '0x',
  }
}

/** `rpcUserOperation`'s max cost with the v0.7 VerifyingPaymaster's default gas (100 000 + 0). */
export const RPC_USER_OPERATION_MAX_COST =
  (100_000n + 300_000n + 50_000n + 100_000n) * 1_000_000_000n

/** `pm_getPaymasterData` params for `userOperation` on EntryPoint v0.7. */
export const paymasterParams = (userOperation: object, chainId: number) => [
  userOperation,
  entryPoint07Address,
  numberToHex(chainId),
  {},
]

/** A request a recording JSON-RPC peer got. */
export interface RecordedRequest {
  headers: Record<string, string | string[] | undefined>
  body: { method: string; params: unknown[] }
}

/** A bundler's `pimlico_getUserOperationGasPrice` answer: 1 gwei for every speed. */
export const GAS_PRICES = Object.fromEntries(
  ['slow', 'standard', 'fast'].map((speed) => [
    speed,
    {
      maxFeePerGas: numberToHex(1_000_000_000n),
      maxPriorityFeePerGas: numberToHex(1_000_000_000n),
    },
  ]),
)

/** What a recording peer answers by default: the gas prices above, else 8453's chain id. */
const defaultAnswer = (method: string) =>
  method === 'pimlico_getUserOperationGasPrice' ? { result: GAS_PRICES } : { result: '0x2105' }

/**
 * A JSON-RPC peer on a local port that records what reaches it and answers
 * `answer(method)` (default: gas prices, else `'0x2105'`). Stands in for a
 * bundler or an ERC-7677 service where a test proves what the server forwards.
 */
export async function startRecordingPeer(
  answer: (method: string) => object = defaultAnswer,
): Promise<{ url: string; requests: RecordedRequest[]; close(): Promise<void> }> {
  const { createServer } = await import('node:http')
  const requests: RecordedRequest[] = []
  const server = createServer((req, res) => {
    let text = ''
    req.on('data', (chunk: Buffer) => {
      text += chunk.toString()
    })
    req.on('end', () => {
      const body = JSON.parse(text) as RecordedRequest['body'] & { id: unknown }
      requests.push({ headers: req.headers, body })
      res.setHeader('content-type', 'application/json')
      res.end(JSON.stringify({ jsonrpc: '2.0', id: body.id, ...answer(body.method) }))
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as { port: number }
  return {
    url: `http://127.0.0.1:${port}/rpc`,
    requests,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  }
}
