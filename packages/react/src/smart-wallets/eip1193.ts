import { ETHEREUM_READ_METHODS, LatchkeyError, ProviderRpcError } from '@latchkey/core'
import { providerErrors } from '@latchkey/protocol/errors'
import type { Address, Hex, TransactionReceipt } from 'viem'
import type { LatchkeyInstance } from '../store.ts'
import type { TypedData } from '../wallet-requests.ts'
import { currentSmartWalletChains } from './chains.ts'
import type {
  SmartWalletClient,
  SmartWalletEthereumProvider,
  SmartWalletTransaction,
} from './client-types.ts'

export type { SmartWalletEthereumProvider } from './client-types.ts'

/**
 * EIP-5792 error codes (§ "Error codes"), as viem's `errors/rpc.ts` maps them.
 * 5710 is the EIP's own code for a chain the wallet does not support.
 */
export const eip5792Errors = {
  unsupportedNonOptionalCapability: 5700,
  unsupportedChainId: 5710,
  duplicateId: 5720,
  unknownBundleId: 5730,
} as const

/** EIP-5792 `wallet_getCallsStatus` status codes this wallet reports. */
export const callsStatus = { pending: 100, confirmed: 200, reverted: 500 } as const

/** Capabilities a `wallet_sendCalls` may require that this wallet honours (see `wallet_getCapabilities`). */
const SEND_CAPABILITIES = new Set(['paymasterService'])

type Batch =
  | { chainId: number; status: typeof callsStatus.pending }
  | { chainId: number; status: 200 | 500; receipt: TransactionReceipt }

interface RpcCall {
  to?: unknown
  data?: unknown
  value?: unknown
  capabilities?: Record<string, { optional?: boolean } | undefined>
}

const rpcError = (code: number, message: string) => new ProviderRpcError(code, message)
const invalidParams = (message: string) => rpcError(-32602, message)
const toHex = (n: bigint | number) => `0x${n.toString(16)}` as Hex
const isHex = (value: unknown): value is Hex =>
  typeof value === 'string' && /^0x[0-9a-fA-F]*$/.test(value)

/**
 * A receipt in JSON-RPC form, as EIP-5792 puts it in `receipts` (viem's
 * `getCallsStatus` reads `blockNumber`, `gasUsed` and `status` as hex). The
 * status is the user operation's: '0x0' when its calls reverted inside a
 * bundle transaction that itself succeeded.
 */
function rpcReceipt(receipt: TransactionReceipt, success: boolean) {
  return {
    logs: (receipt.logs ?? []).map(({ address, data, topics }) => ({ address, data, topics })),
    status: success ? '0x1' : '0x0',
    blockHash: receipt.blockHash,
    blockNumber: toHex(receipt.blockNumber),
    gasUsed: toHex(receipt.gasUsed),
    transactionHash: receipt.transactionHash,
  }
}

/**
 * One error translation for the provider: screens already reject with
 * EIP-1193 errors (closing one is 4001); Latchkey errors become -32603 with
 * their stable code in `data.code`, UNSUPPORTED_CHAIN becoming `chainCode`.
 */
function providerError(error: unknown, chainCode: number = providerErrors.chainDisconnected.code) {
  if (error instanceof ProviderRpcError) return error
  if (!(error instanceof LatchkeyError)) return error
  const code = error.code === 'UNSUPPORTED_CHAIN' ? chainCode : providerErrors.internal.code
  return Object.assign(rpcError(code, error.message), { data: { code: error.code }, cause: error })
}

/** What the client's TRANSACTION_REVERTED carries: the included operation and its bundle's receipt. */
function revertedOperation(error: unknown) {
  if (!(error instanceof LatchkeyError) || error.code !== 'TRANSACTION_REVERTED') return undefined
  const details = error.details as
    | { userOperationHash?: string; receipt?: TransactionReceipt }
    | undefined
  return details?.receipt
    ? { userOperationHash: details.userOperationHash, receipt: details.receipt }
    : undefined
}

/** The calls of `eth_sendTransaction` / `wallet_sendCalls` as the client's, values as bigint. */
function callOf(call: RpcCall, chainId?: number): SmartWalletTransaction {
  if (typeof call?.to !== 'string' || !/^0x[0-9a-fA-F]{40}$/.test(call.to))
    throw invalidParams('A smart wallet call needs `to` (it deploys no contracts)')
  if (call.data !== undefined && !isHex(call.data)) throw invalidParams('`data` must be hex')
  if (call.value !== undefined && !isHex(call.value)) throw invalidParams('`value` must be hex')
  return {
    to: call.to as Address,
    ...(call.data !== undefined && { data: call.data }),
    ...(call.value !== undefined && { value: BigInt(call.value as Hex) }),
    ...(chainId !== undefined && { chainId }),
  }
}

/** EIP-5792 §capabilities: a capability the app did not mark `optional: true` must be honoured, else 5700. */
function checkCapabilities(
  capabilities: RpcCall['capabilities'],
  { sponsored }: { sponsored: boolean },
) {
  for (const [name, capability] of Object.entries(capabilities ?? {})) {
    if (capability?.optional === true) continue
    // The app's own paymaster service is not used: the chain's paymaster, set on the server, pays.
    const honoured = SEND_CAPABILITIES.has(name) && (name !== 'paymasterService' || sponsored)
    if (!honoured)
      throw rpcError(
        eip5792Errors.unsupportedNonOptionalCapability,
        `The smart wallet does not support the required capability ${name} on this chain`,
      )
  }
}

/**
 * The EIP-1193 provider of the user's smart wallet, for wagmi and viem
 * (`custom(provider)`): `eth_sendTransaction` and EIP-5792 `wallet_sendCalls`
 * go through the client's confirm screen as one user operation,
 * `personal_sign` / `eth_signTypedData_v4` through its sign screen,
 * `wallet_switchEthereumChain` moves every `useSmartWallets()` (as
 * `client.switchChain`), and read-only calls go to the chain's node.
 *
 * @example
 * const walletClient = createWalletClient({ transport: custom(client.getEthereumProvider()) })
 * const { id } = await sendCalls(walletClient, { account: client.account.address, calls })
 * const { status, receipts } = await getCallsStatus(walletClient, { id })
 */
export function smartWalletEthereumProvider(
  instance: LatchkeyInstance,
  {
    client,
    switchTo,
  }: {
    client: SmartWalletClient
    /** `client.switchChain`, answering the new chain's client (the registry's, passed in: no import cycle). */
    switchTo(id: number): Promise<SmartWalletClient>
  },
): SmartWalletEthereumProvider {
  let current = client
  const batches = new Map<string, Batch>()
  const chains = () => currentSmartWalletChains(instance)
  const sponsoredOn = (id: number) => chains().find((c) => c.chain.id === id)?.sponsored ?? false
  const isAccount = (value: unknown) =>
    typeof value === 'string' && value.toLowerCase() === current.account.address.toLowerCase()
  const checkFrom = (from: unknown) => {
    if (from !== undefined && from !== null && !isAccount(from))
      throw rpcError(providerErrors.unauthorized.code, `Unknown address ${String(from)}`)
  }

  async function switchChain(params: unknown[]) {
    const hex = (params[0] as { chainId?: unknown } | undefined)?.chainId
    if (!isHex(hex) || hex === '0x')
      throw invalidParams('wallet_switchEthereumChain needs { chainId: hex }')
    const id = Number.parseInt(hex, 16)
    if (!chains().some((c) => c.chain.id === id))
      throw rpcError(
        providerErrors.unrecognizedChain.code,
        `Chain ID ${id} has no smart wallet in this app.`,
      )
    if (id === current.chain.id) return null
    // What `client.switchChain` runs, keeping the new chain's client.
    current = await switchTo(id).catch((error: unknown) => {
      throw providerError(error, providerErrors.unrecognizedChain.code)
    })
    return null
  }

  async function sendCalls(params: unknown[]) {
    const request = params[0] as
      | {
          version?: unknown
          id?: unknown
          chainId?: unknown
          from?: unknown
          calls?: RpcCall[]
          capabilities?: RpcCall['capabilities']
        }
      | undefined
    if (!request || typeof request !== 'object')
      throw invalidParams('wallet_sendCalls needs params')
    if (request.version !== '2.0.0')
      throw invalidParams(
        `wallet_sendCalls version ${String(request.version)}; this wallet speaks 2.0.0`,
      )
    const chainId = isHex(request.chainId) ? Number.parseInt(request.chainId, 16) : Number.NaN
    if (chainId !== current.chain.id)
      throw rpcError(
        eip5792Errors.unsupportedChainId,
        `The smart wallet is on chain ${current.chain.id}, not ${String(request.chainId)}`,
      )
    checkFrom(request.from)
    const calls = request.calls
    if (!Array.isArray(calls) || calls.length === 0)
      throw invalidParams('wallet_sendCalls needs at least one call')
    const sponsored = { sponsored: sponsoredOn(chainId) }
    checkCapabilities(request.capabilities, sponsored)
    for (const call of calls) checkCapabilities(call?.capabilities, sponsored)
    // Every call is atomic (one user operation), so `atomicRequired` is always met.
    const inputs = calls.map((call) => callOf(call))
    const appId = request.id === undefined || request.id === null ? undefined : request.id
    if (appId !== undefined && (typeof appId !== 'string' || appId.length === 0))
      throw invalidParams('`id` must be a string')
    if (appId !== undefined && batches.has(appId))
      throw rpcError(eip5792Errors.duplicateId, `A batch with id ${appId} was already sent`)
    // An app-chosen id is pending (100) from now on; the user operation's hash is known once it is included.
    if (appId) batches.set(appId, { chainId, status: callsStatus.pending })
    try {
      const { userOperationHash, receipt } = await current.sendCalls(inputs)
      const id = appId ?? userOperationHash
      batches.set(id, { chainId, status: callsStatus.confirmed, receipt })
      return { id }
    } catch (error) {
      // Included, paid for, and reverted inside the operation: EIP-5792 status 500, not an error.
      const reverted = revertedOperation(error)
      const id = appId ?? reverted?.userOperationHash
      if (reverted && id) {
        batches.set(id, { chainId, status: callsStatus.reverted, receipt: reverted.receipt })
        return { id }
      }
      if (appId) batches.delete(appId)
      throw providerError(error)
    }
  }

  function getCallsStatus(params: unknown[]) {
    const id = params[0]
    const batch = typeof id === 'string' ? batches.get(id) : undefined
    if (!batch) throw rpcError(eip5792Errors.unknownBundleId, `No batch with id ${String(id)}`)
    return {
      version: '2.0.0',
      id,
      chainId: toHex(batch.chainId),
      status: batch.status,
      atomic: true,
      receipts:
        batch.status === callsStatus.pending
          ? []
          : [rpcReceipt(batch.receipt, batch.status === callsStatus.confirmed)],
    }
  }

  function getCapabilities(params: unknown[]) {
    const [address, ids] = params as [unknown, unknown]
    if (address !== undefined && !isAccount(address))
      throw rpcError(providerErrors.unauthorized.code, `Unknown address ${String(address)}`)
    const wanted = Array.isArray(ids) ? ids.map((id) => Number.parseInt(String(id), 16)) : undefined
    return Object.fromEntries(
      chains()
        .filter(({ chain }) => !wanted || wanted.includes(chain.id))
        .map(({ chain, sponsored }) => [
          toHex(chain.id),
          { atomic: { status: 'supported' }, paymasterService: { supported: sponsored } },
        ]),
    )
  }

  async function personalSign([message, address]: unknown[]) {
    if (!isAccount(address)) throw rpcError(providerErrors.unauthorized.code, 'Unknown address')
    if (typeof message !== 'string' || message.length === 0 || message === '0x')
      throw new LatchkeyError('EMPTY_MESSAGE')
    return current.signMessage({ message: textOf(message) })
  }

  async function signTypedData([address, typedData]: unknown[]) {
    if (!isAccount(address)) throw rpcError(providerErrors.unauthorized.code, 'Unknown address')
    let data: unknown = typedData
    if (typeof typedData === 'string') {
      try {
        data = JSON.parse(typedData)
      } catch {
        throw invalidParams('eth_signTypedData_v4 needs typed data JSON')
      }
    }
    return current.signTypedData(data as TypedData)
  }

  async function sendTransaction([tx]: unknown[]) {
    const raw = (tx ?? {}) as RpcCall & { from?: unknown; chainId?: unknown }
    checkFrom(raw.from)
    const chainId = isHex(raw.chainId) ? Number.parseInt(raw.chainId, 16) : undefined
    return current.sendTransaction(callOf(raw, chainId))
  }

  return {
    async request({ method, params }) {
      const list = Array.isArray(params) ? params : []
      try {
        switch (method) {
          case 'eth_accounts':
          case 'eth_requestAccounts':
            return [current.account.address]
          case 'eth_chainId':
            return toHex(current.chain.id)
          case 'wallet_switchEthereumChain':
            return await switchChain(list)
          case 'personal_sign':
            return await personalSign(list)
          case 'eth_signTypedData_v4':
            return await signTypedData(list)
          case 'eth_sendTransaction':
            return await sendTransaction(list)
          case 'wallet_sendCalls':
            return await sendCalls(list)
          case 'wallet_getCallsStatus':
            return getCallsStatus(list)
          case 'wallet_getCapabilities':
            return getCapabilities(list)
          default: {
            if (!ETHEREUM_READ_METHODS.has(method))
              throw rpcError(
                providerErrors.unsupportedMethod.code,
                `The smart wallet does not support ${method}`,
              )
            const { chainClient } = await import('@latchkey/core/transactions')
            return await chainClient(current.chain).request({ method, params } as never)
          }
        }
      } catch (error) {
        throw providerError(error)
      }
    },
  }
}

/**
 * personal_sign's hex as the text the client signs: signing the UTF-8 text
 * signs the same bytes. Bytes that are not UTF-8 (a raw hash) cannot go
 * through the client's `signMessage`, which takes text.
 */
function textOf(message: string): string {
  if (!isHex(message)) return message
  const bytes = Uint8Array.from(message.slice(2).match(/.{1,2}/g) ?? [], (b) =>
    Number.parseInt(b, 16),
  )
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes)
  } catch {
    throw invalidParams('The smart wallet signs text messages only; these bytes are not UTF-8')
  }
}
