import { SMART_WALLET_TYPES, type SmartWalletType } from '@latchkey/protocol'
import { type Address, numberToHex } from 'viem'
import { formatUserOperation, type UserOperation } from 'viem/account-abstraction'
import { z } from 'zod'
import type { AppRecord } from '../apps/service.ts'
import type { AuthContext, Services } from '../http/context.ts'
import { SMART_WALLET_ACCOUNT_TYPE } from '../users/accounts-wire.ts'
import { type RelayAnswer, relayJsonRpc } from './relay.ts'
import { type JsonRpcErrorObject, SmartWalletRpcError } from './rpc-errors.ts'
import {
  type SmartWalletChainSettings,
  type SmartWalletSettings,
  smartWalletChain,
} from './settings.ts'
import { sponsorData, sponsorStubData } from './sponsor.ts'

/*
 * `POST /api/v1/smart_wallets/{chainId}/rpc` (docs/smart-wallets.md "The RPC
 * route"): one JSON-RPC request of a signed-in user, for their smart wallet
 * on one of the app's chains. Bundler methods go to the chain's bundler;
 * `pm_*` are answered by the app's paymaster. Operations whose sender is not
 * the user's linked smart wallet are refused before anything leaves.
 */

/** The ERC-4337 bundler methods relayed (anything else but `pm_*`: -32601). */
export const BUNDLER_METHODS: readonly string[] = [
  'eth_chainId',
  'eth_supportedEntryPoints',
  'eth_estimateUserOperationGas',
  'eth_sendUserOperation',
  'eth_getUserOperationReceipt',
  'eth_getUserOperationByHash',
  'pimlico_getUserOperationGasPrice',
]

const PAYMASTER_METHODS = ['pm_getPaymasterStubData', 'pm_getPaymasterData'] as const

/** One JSON-RPC 2.0 request. */
export const smartWalletRpcRequestSchema = z.object({
  jsonrpc: z.literal('2.0'),
  id: z.union([z.string().max(128), z.number(), z.null()]).optional(),
  method: z.string().min(1).max(128),
  params: z.array(z.unknown()).max(8).optional(),
})
export type SmartWalletRpcRequest = z.infer<typeof smartWalletRpcRequestSchema>

/** Its answer: a result or a JSON-RPC error. */
export const smartWalletRpcResponseSchema = z.object({
  jsonrpc: z.literal('2.0'),
  id: z.union([z.string(), z.number(), z.null()]),
  result: z.unknown().optional(),
  error: z
    .object({ code: z.number().int(), message: z.string(), data: z.unknown().optional() })
    .optional(),
})
export type SmartWalletRpcResponse = z.infer<typeof smartWalletRpcResponseSchema>

const address = z.string().regex(/^0x[0-9a-fA-F]{40}$/)
const quantity = z.string().regex(/^0x[0-9a-fA-F]{1,64}$/)
const bytes = z
  .string()
  .regex(/^0x([0-9a-fA-F]{2})*$/)
  .max(64 * 1024)

/** A user operation in RPC form (v0.7 / v0.8 fields): what is checked before it is read. */
const rpcUserOperationSchema = z.looseObject({
  sender: address,
  nonce: quantity,
  callData: bytes,
  // EntryPoint v0.8: an EIP-7702 account's first operation names the marker `0x7702`.
  factory: z.union([address, z.literal('0x7702')]).nullish(),
  factoryData: bytes.nullish(),
  callGasLimit: quantity.optional(),
  verificationGasLimit: quantity.optional(),
  preVerificationGas: quantity.optional(),
  maxFeePerGas: quantity.optional(),
  maxPriorityFeePerGas: quantity.optional(),
  paymasterVerificationGasLimit: quantity.nullish(),
  paymasterPostOpGasLimit: quantity.nullish(),
})

const GAS_FIELDS = [
  'callGasLimit',
  'verificationGasLimit',
  'preVerificationGas',
  'maxFeePerGas',
  'maxPriorityFeePerGas',
] as const

const invalid = (message: string) => new SmartWalletRpcError('INVALID_PARAMS', message)

function userOperationOf(value: unknown, needsGas: boolean): UserOperation {
  const parsed = rpcUserOperationSchema.safeParse(value)
  if (!parsed.success)
    throw invalid('params[0] must be a user operation (sender, nonce, callData…)')
  if (needsGas && GAS_FIELDS.some((field) => parsed.data[field] === undefined))
    throw invalid(`The user operation needs its gas fields: ${GAS_FIELDS.join(', ')}`)
  return formatUserOperation(parsed.data as never) as UserOperation
}

/**
 * The user's linked smart wallet in this app (users/accounts-wire.ts
 * `smart_wallet`: identifier = lowercase address): the only sender they may
 * use. Its account type tells how its callData reads.
 */
async function assertOwnSender(
  services: Services,
  auth: AuthContext,
  sender: unknown,
  fallbackType: SmartWalletType,
): Promise<SmartWalletType> {
  const row = await services.db
    .selectFrom('linked_accounts')
    .select(['identifier', 'data'])
    .where('app_id', '=', auth.appId)
    .where('user_id', '=', auth.userId)
    .where('type', '=', SMART_WALLET_ACCOUNT_TYPE)
    .executeTakeFirst()
  if (!row || typeof sender !== 'string' || sender.toLowerCase() !== row.identifier)
    throw new SmartWalletRpcError(
      'SMART_WALLET_SENDER_NOT_OWNED',
      "The operation's sender is not the signed-in user's smart wallet.",
    )
  const type = (JSON.parse(row.data) as { smart_wallet_type?: unknown }).smart_wallet_type
  return SMART_WALLET_TYPES.includes(type as SmartWalletType)
    ? (type as SmartWalletType)
    : fallbackType
}

const senderOf = (params: unknown[]) => (params[0] as { sender?: unknown } | null)?.sender

async function paymasterMethod(
  services: Services,
  auth: AuthContext,
  settings: SmartWalletSettings,
  chain: SmartWalletChainSettings,
  method: (typeof PAYMASTER_METHODS)[number],
  params: unknown[],
): Promise<RelayAnswer> {
  const chainId = chain.chain_id
  const [, entryPoint, chainIdHex, context] = params
  if (typeof chainIdHex !== 'string' || chainIdHex.toLowerCase() !== numberToHex(chainId))
    throw invalid(`params[2] must be this route's chain id, ${numberToHex(chainId)}`)
  if (typeof entryPoint !== 'string' || !address.safeParse(entryPoint).success)
    throw invalid('params[1] must be the EntryPoint address')
  const accountType = await assertOwnSender(
    services,
    auth,
    senderOf(params),
    settings.type ?? 'safe',
  )
  const paymaster = chain.paymaster
  if (!paymaster)
    throw new SmartWalletRpcError(
      'SMART_WALLET_NOT_SPONSORED',
      `The app does not sponsor gas on chain ${chainId}.`,
    )
  if (paymaster.kind === 'erc7677') {
    // The app's context wins over the caller's (a sponsorship policy id is the app's to choose).
    const callerContext = context && typeof context === 'object' ? context : {}
    return relayJsonRpc(
      paymaster.url,
      method,
      [params[0], entryPoint, chainIdHex, { ...callerContext, ...(paymaster.context ?? {}) }],
      'PAYMASTER_UNAVAILABLE',
    )
  }
  const sponsor = {
    store: services,
    appId: auth.appId,
    userId: auth.userId,
    chainId,
    accountType,
    paymaster: paymaster.address as Address,
    bundlerUrl: chain.bundler_url,
    rpcUrl: services.config.chainRpcUrls[chainId],
    policy: settings.sponsorship_policy,
    entryPoint,
    now: services.now(),
  }
  if (method === 'pm_getPaymasterStubData')
    return {
      result: await sponsorStubData({
        ...sponsor,
        userOperation: userOperationOf(params[0], false),
      }),
    }
  return {
    result: await sponsorData({ ...sponsor, userOperation: userOperationOf(params[0], true) }),
  }
}

async function answer(
  services: Services,
  app: AppRecord,
  auth: AuthContext,
  chainId: number,
  request: SmartWalletRpcRequest,
): Promise<RelayAnswer> {
  const settings = app.settings.smart_wallets
  const chain = smartWalletChain(settings, chainId)
  if (!settings || !chain)
    throw new SmartWalletRpcError(
      'SMART_WALLET_CHAIN_NOT_CONFIGURED',
      `The app has no smart wallets on chain ${chainId}.`,
    )
  const params = request.params ?? []
  if ((PAYMASTER_METHODS as readonly string[]).includes(request.method))
    return paymasterMethod(
      services,
      auth,
      settings,
      chain,
      request.method as (typeof PAYMASTER_METHODS)[number],
      params,
    )
  if (!BUNDLER_METHODS.includes(request.method))
    throw new SmartWalletRpcError(
      'METHOD_NOT_FOUND',
      `The method ${request.method.slice(0, 64)} is not available here.`,
    )
  if (request.method === 'eth_sendUserOperation')
    await assertOwnSender(services, auth, senderOf(params), settings.type ?? 'safe')
  return relayJsonRpc(chain.bundler_url, request.method, params, 'BUNDLER_UNAVAILABLE')
}

/**
 * Answers one JSON-RPC request of the signed-in user on `chainId`
 * (unparsed: a malformed id is a chain this app does not have). Refusals
 * are JSON-RPC errors; only a failure of the server itself throws.
 *
 * @example
 * await smartWalletRpc(services, app, auth, '8453', { jsonrpc: '2.0', id: 1, method: 'eth_chainId' })
 * // { jsonrpc: '2.0', id: 1, result: '0x2105' }
 */
export async function smartWalletRpc(
  services: Services,
  app: AppRecord,
  auth: AuthContext,
  chainId: string,
  request: SmartWalletRpcRequest,
): Promise<SmartWalletRpcResponse> {
  const id = request.id ?? null
  try {
    if (!/^[1-9][0-9]{0,15}$/.test(chainId))
      throw new SmartWalletRpcError(
        'SMART_WALLET_CHAIN_NOT_CONFIGURED',
        'The chain id must be a positive whole number.',
      )
    const result = await answer(services, app, auth, Number(chainId), request)
    return { jsonrpc: '2.0', id, ...result }
  } catch (error) {
    if (!(error instanceof SmartWalletRpcError)) throw error
    const rpcError: JsonRpcErrorObject = error.toJsonRpc()
    return { jsonrpc: '2.0', id, error: rpcError }
  }
}
