import {
  type Address,
  BaseError,
  decodeEventLog,
  type Hex,
  isAddressEqual,
  type Log,
  MethodNotFoundRpcError,
  MethodNotSupportedRpcError,
  parseAbi,
  zeroAddress,
} from 'viem'
import { simulateBlocks } from 'viem/actions'
import type { ChainClient } from './chain-client.ts'
import { readTokenInfo } from './token-info.ts'
import type { AssetDiff, EthereumTransactionInput, TransactionScanResult } from './types.ts'

export interface SimulateEthereumTransactionParameters {
  client: ChainClient
  from: Address
  /** The request as asked or as prepared: only `to`, `data` and `value` matter. */
  request: Pick<EthereumTransactionInput, 'to' | 'data' | 'value'>
}
/** A scan result, or why this node cannot simulate (say so plainly; the preview falls back). */
export type SimulateEthereumTransactionReturnType =
  | TransactionScanResult
  | { unsupported: true; reason: string }

/** `simulation.error` when the transaction moves no asset in or out of the wallet (spec 03 §5). */
export const NO_TOKENS_FOUND = 'No tokens found'

/** ERC-7528: where `traceTransfers` logs native transfers from, as ERC-20 `Transfer` events. */
const NATIVE_TRANSFER_LOG_ADDRESS: Address = '0xEeeeeEeeeEeEeeEeEeEeeEEEeeeeEeeeeeeeEEeE'

const erc20Events = parseAbi([
  'event Transfer(address indexed from, address indexed to, uint256 value)',
  'event Approval(address indexed owner, address indexed spender, uint256 value)',
])
const nftEvents = parseAbi([
  'event Transfer(address indexed from, address indexed to, uint256 indexed tokenId)',
  'event Approval(address indexed owner, address indexed approved, uint256 indexed tokenId)',
  'event ApprovalForAll(address indexed owner, address indexed operator, bool approved)',
  'event TransferSingle(address indexed operator, address indexed from, address indexed to, uint256 id, uint256 value)',
  'event TransferBatch(address indexed operator, address indexed from, address indexed to, uint256[] ids, uint256[] values)',
])

type AssetType = AssetDiff['asset']['type']
/** A token moving (`move`) or a spending right granted (`grant`: `from` is the owner, `to` the spender). */
type Flow = {
  kind: 'move' | 'grant'
  type?: AssetType
  address: Address
  from: Address
  to: Address
  value?: bigint
  tokenId?: bigint
  all?: boolean
}

/**
 * The built-in, self-hosted transaction scan (spec 03 §4 "optional scan"):
 * runs the transaction on the node with `eth_simulateV1` (transfers traced)
 * and reads from its logs what enters and leaves the wallet (`assets_diffs`:
 * native value, ERC-20, ERC-721, ERC-1155) and what it lets others spend
 * (`exposures`: ERC-20 and ERC-721 `Approval`, `ApprovalForAll`). Gas fees
 * are not part of the diffs. There is no malice check, so no `validation`.
 * - A node without `eth_simulateV1` → `{ unsupported: true, reason }`.
 * - A call that reverts, or a node error → `simulation.status` 'Error' with
 *   the reason in `simulation.error`.
 * - Nothing in or out → `simulation.status` 'Error', `error` NO_TOKENS_FOUND
 *   ('No tokens found'); `exposures` are still filled, so an approval's
 *   spender can be shown.
 *
 * @example
 * const scan = await simulateEthereumTransaction({ client, from, request: prepared.request })
 * if ('unsupported' in scan) showPlainPreview(scan.reason)
 * else if (scan.simulation?.status === 'Success') showAssetChanges(scan.simulation.assets_diffs)
 */
export async function simulateEthereumTransaction({
  client,
  from,
  request,
}: SimulateEthereumTransactionParameters): Promise<SimulateEthereumTransactionReturnType> {
  const value = request.value ?? 0n
  const { to = null, data } = request
  const params = { from, to, value, ...(data ? { data } : {}) }
  const failed = (error: string): TransactionScanResult => ({
    simulation: { status: 'Error', error, params, assets_diffs: [], exposures: [] },
  })
  let call: { status: 'success' | 'failure'; logs?: Log[]; error?: Error } | undefined
  try {
    const [block] = await simulateBlocks(client, {
      blocks: [{ calls: [{ account: from, to: to ?? undefined, data, value }] }],
      traceTransfers: true,
    })
    call = block?.calls[0]
  } catch (error) {
    const reason = messageOf(error)
    return isUnsupported(error) ? { unsupported: true, reason } : failed(reason)
  }
  if (!call) return failed('The node returned no result')
  if (call.status === 'failure') return failed(revertReason(call.error))

  const logs = call.logs ?? []
  const flows = logs.flatMap(readLog)
  // A node that ignores `traceTransfers` logs no native move: take the top-level value.
  const traced = logs.some((log) => isAddressEqual(log.address, NATIVE_TRANSFER_LOG_ADDRESS))
  const send = { kind: 'move', type: 'NATIVE', address: NATIVE_TRANSFER_LOG_ADDRESS } as const
  if (!traced && value > 0n && to) flows.push({ ...send, from, to, value })
  const mine = flows.filter(
    (f) => isAddressEqual(f.from, from) || (f.kind === 'move' && isAddressEqual(f.to, from)),
  )
  const addresses = new Set(
    mine.filter((f) => f.type !== 'NATIVE').map((f) => f.address.toLowerCase()),
  )
  const infos = new Map(
    await Promise.all(
      [...addresses].map(async (a) => [a, await readTokenInfo(client, a as Address)] as const),
    ),
  )
  const native = client.chain?.nativeCurrency ?? { name: 'Ether', symbol: 'ETH', decimals: 18 }
  const assetOf = ({ type, address }: Flow): AssetDiff['asset'] => {
    if (type === 'NATIVE') return { type, ...native }
    const info = infos.get(address.toLowerCase())
    // ApprovalForAll is shared by ERC-721 and ERC-1155: the contract says which.
    const asset: AssetDiff['asset'] = {
      type: type ?? (info?.kind === 'erc1155' ? 'ERC1155' : 'ERC721'),
      address: info?.address ?? address,
    }
    if (info?.name) asset.name = info.name
    if (info?.symbol) asset.symbol = info.symbol
    if (type === 'ERC20') asset.decimals = info?.decimals ?? 18
    return asset
  }

  const diffs = new Map<string, AssetDiff>()
  const exposures: NonNullable<TransactionScanResult['simulation']>['exposures'] = []
  const grants = new Map<string, (typeof exposures)[number]>()
  for (const f of mine) {
    const key = `${f.type}:${f.address.toLowerCase()}`
    if (f.kind === 'grant') {
      const exposure = grants.get(key) ?? { asset: assetOf(f), spenders: [] }
      if (!grants.has(key)) exposures.push(exposure)
      grants.set(key, exposure)
      exposure.spenders.push({
        address: f.to,
        ...(f.value === undefined ? {} : { value: f.value }),
        ...(f.all ? { is_approved_for_all: true } : {}),
      })
      continue
    }
    const diff = diffs.get(key) ?? { asset: assetOf(f), in: [], out: [] }
    diffs.set(key, diff)
    const fungible = f.type === 'NATIVE' || f.type === 'ERC20'
    const sides = [isAddressEqual(f.from, from) && diff.out, isAddressEqual(f.to, from) && diff.in]
    for (const entries of sides) {
      if (!entries) continue
      const sum = fungible ? entries[0] : undefined
      if (sum) sum.value += f.value ?? 0n
      else entries.push({ value: f.value ?? 0n, ...(fungible ? {} : { token_id: f.tokenId }) })
    }
  }

  const assets_diffs = [...diffs.values()].filter((d) => d.in.length > 0 || d.out.length > 0)
  return {
    simulation: {
      status: assets_diffs.length > 0 ? 'Success' : 'Error',
      ...(assets_diffs.length > 0 ? {} : { error: NO_TOKENS_FOUND }),
      params,
      assets_diffs,
      exposures,
    },
  }
}

/** A log as token flows (a batch transfer gives several); logs of other shapes give none. */
function readLog({ address, data, topics }: Log): Flow[] {
  const log = { data, topics: topics as [Hex, ...Hex[]] }
  // ERC-20 and ERC-721 share `Transfer` and `Approval`: the indexed token id tells them apart.
  const erc20 = attempt(() => decodeEventLog({ abi: erc20Events, ...log }))
  if (erc20?.eventName === 'Transfer') {
    const native = isAddressEqual(address, NATIVE_TRANSFER_LOG_ADDRESS)
    return [{ kind: 'move', type: native ? 'NATIVE' : 'ERC20', address, ...erc20.args }]
  }
  if (erc20?.eventName === 'Approval') {
    const { owner, spender, value } = erc20.args
    return value > 0n
      ? [{ kind: 'grant', type: 'ERC20', address, from: owner, to: spender, value }]
      : []
  }
  const event = attempt(() => decodeEventLog({ abi: nftEvents, ...log }))
  switch (event?.eventName) {
    case 'Transfer':
      return [{ kind: 'move', type: 'ERC721', address, ...event.args, value: 1n }]
    case 'TransferSingle': {
      const { from, to, id, value } = event.args
      return [{ kind: 'move', type: 'ERC1155', address, from, to, value, tokenId: id }]
    }
    case 'TransferBatch': {
      const { from, to, ids, values } = event.args
      const move = { kind: 'move', type: 'ERC1155', address, from, to } as const
      return ids.map((id, i) => ({ ...move, value: values[i] ?? 0n, tokenId: id }))
    }
    case 'Approval': {
      const { owner, approved } = event.args
      if (isAddressEqual(approved, zeroAddress)) return []
      return [{ kind: 'grant', type: 'ERC721', address, from: owner, to: approved }]
    }
    case 'ApprovalForAll': {
      const { owner, operator, approved } = event.args
      return approved ? [{ kind: 'grant', address, from: owner, to: operator, all: true }] : []
    }
    default:
      return []
  }
}

function attempt<T>(read: () => T): T | undefined {
  try {
    return read()
  } catch {}
}

// Nodes word it differently: "the method eth_simulateV1 does not exist/is not available", …
const UNSUPPORTED =
  /method not found|(method|eth_simulateV1)\b.{0,40}\b(not (found|supported|available)|does not exist|unsupported)/i
const UNSUPPORTED_CODES: number[] = [MethodNotFoundRpcError.code, MethodNotSupportedRpcError.code]

/** A node that has no `eth_simulateV1` (method not found, or not offered). */
function isUnsupported(error: unknown): boolean {
  const says = (e: unknown) => {
    const { code, details } = e as { code?: number; details?: string }
    return UNSUPPORTED_CODES.includes(code ?? 0) || UNSUPPORTED.test(details ?? '')
  }
  return error instanceof BaseError && error.walk(says) !== null
}

/** A reverted call's reason (`Error(string)` or custom error name), as viem decoded it. */
function revertReason(error: Error | undefined): string {
  const hasReason = (e: unknown) => typeof (e as { reason?: unknown }).reason === 'string'
  const found = error instanceof BaseError ? error.walk(hasReason) : null
  return (found as { reason?: string } | null)?.reason ?? messageOf(error ?? 'Execution reverted')
}

function messageOf(error: unknown): string {
  if (error instanceof BaseError) return error.details || error.shortMessage
  return error instanceof Error ? error.message : String(error)
}
