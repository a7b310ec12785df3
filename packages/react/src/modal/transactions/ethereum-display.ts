import {
  type AssetDiff,
  type DecodedEthereumTransaction,
  formatNativeAmount,
  formatTokenAmount,
  formatUsd,
  isUnlimitedApproval,
  type TokenInfo,
} from '@latchkey/core/transactions'
import { type Chain, formatUnits } from 'viem'
import type { TransactionUiOptions } from '../../transaction-requests.ts'
import type { ScanState } from './useEthereumStep.ts'

// What the Ethereum confirm screen writes, as plain functions of what it
// was given: the rows only place these strings.

/** Spec 03 §9 "Decimals": an ERC-20 that does not say has 18. */
const DEFAULT_TOKEN_DECIMALS = 18

/** '0x1234…abcd': the wallet card, address rows and hashes. */
export const shortHex = (value: string): string =>
  value.length > 12 ? `${value.slice(0, 6)}…${value.slice(-4)}` : value

/**
 * Spec 03 §2 "Ethereum transaction confirm": the app's title, else 'Approve
 * {action}', else 'Confirm address' for an ERC-20 approval and 'Confirm
 * action' for any other (NFT approve, setApprovalForAll), else 'Confirm
 * transaction'; '(n / m)' is added for multi-step requests.
 */
export function transactionTitle(
  uiOptions: TransactionUiOptions,
  decoded: DecodedEthereumTransaction | null,
  index: number,
  total: number,
): string {
  const info = uiOptions.transactionInfo
  const title =
    info?.title ??
    (info?.action
      ? `Approve ${info.action}`
      : decoded?.action === 'approve'
        ? decoded.isErc20Ish
          ? 'Confirm address'
          : 'Confirm action'
        : 'Confirm transaction')
  return total > 1 ? `${title} (${index + 1} / ${total})` : title
}

/** Spec 03 §4: 'Continue' until the last step, then the app's wording or 'Approve'. */
export const submitText = (uiOptions: TransactionUiOptions, isLast: boolean): string =>
  isLast ? (uiOptions.buttonText ?? 'Approve') : 'Continue'

const withSymbol = (amount: string, symbol?: string) => (symbol ? `${amount} ${symbol}` : amount)

/** A native amount with the chain's symbol: '0.5 ETH' (spec 03 §9, up to 6 decimals). */
export const nativeText = (amount: bigint, chain: Chain): string =>
  withSymbol(formatNativeAmount(amount, chain.nativeCurrency.decimals), chain.nativeCurrency.symbol)

/**
 * The dollar value of a native amount at `usdPrice` per whole coin (spec 03
 * §9 "USD display": '$1,234.57', '<$0.01'); undefined without a price. The
 * amount goes through its decimal string, so a wei amount past 2^53 keeps
 * its leading digits; the product is a display value, never arithmetic.
 *
 * @example
 * usdValue(parseEther('0.5'), 18, 3012.5) // '$1,506.25'
 */
export function usdValue(
  amount: bigint,
  decimals: number,
  usdPrice: number | null,
): string | undefined {
  if (usdPrice === null) return undefined
  return formatUsd(Number(formatUnits(amount, decimals)) * usdPrice)
}

/** An ERC-20 amount with its symbol: '1.5 USDC' (spec 03 §9 adaptive precision). */
export const tokenText = (amount: bigint, token: TokenInfo | null): string =>
  withSymbol(formatTokenAmount(amount, token?.decimals ?? DEFAULT_TOKEN_DECIMALS), token?.symbol)

/** Spec 03 §9: an unlimited ERC-20 allowance is 'Maximum'. */
export const approvalText = (amount: bigint, token: TokenInfo | null): string =>
  isUnlimitedApproval(amount) ? 'Maximum' : tokenText(amount, token)

/** The decoded arguments as JSON, bigints as decimal strings (the Details row). */
export const argsText = (args: readonly unknown[]): string =>
  JSON.stringify(args, (_key, value) => (typeof value === 'bigint' ? value.toString() : value), 2)

/** The scan's asset changes, when the scan completed and its simulation succeeded. */
export function scanDiffs(scan: ScanState): AssetDiff[] | null {
  if (scan.status !== 'completed') return null
  const simulation = scan.result.simulation
  return simulation?.status === 'Success' ? simulation.assets_diffs : null
}

/** The scanner's verdict (an app's scanner; the built-in simulation gives none). */
export function scanVerdict(scan: ScanState) {
  if (scan.status !== 'completed') return null
  return scan.result.validation ?? null
}

export interface AssetChangeText {
  amount: string
  /**
   * Spec 03 §9 "USD display", from the scan's `usd_price` (the value of this
   * change); without it, a native change at the screen's price; else none.
   */
  usd?: string
}

/**
 * One side (what leaves, or what enters the wallet) of an asset's change:
 * fungible amounts are summed ('0.5 ETH', '12 USDC'); NFTs list their ids.
 * Null when nothing moves on that side. The scan's own `usd_price` wins;
 * `nativeUsdPrice` prices only the native currency (a token's symbol is
 * whatever its contract says, so it is never priced by symbol).
 */
export function assetChangeText(
  diff: AssetDiff,
  side: 'in' | 'out',
  chain: Chain,
  nativeUsdPrice: number | null = null,
): AssetChangeText | null {
  const entries = diff[side]
  if (entries.length === 0) return null
  const { asset } = diff
  const label = asset.symbol ?? asset.name
  const total = entries.reduce((sum, entry) => sum + entry.value, 0n)
  const prices = entries.map((entry) => entry.usd_price)
  const nativeDecimals = asset.decimals ?? chain.nativeCurrency.decimals
  const usd = prices.every((price) => typeof price === 'number')
    ? formatUsd((prices as number[]).reduce((sum, price) => sum + price, 0))
    : asset.type === 'NATIVE'
      ? usdValue(total, nativeDecimals, nativeUsdPrice)
      : undefined
  let amount: string
  if (asset.type === 'NATIVE')
    amount = withSymbol(
      formatNativeAmount(total, nativeDecimals),
      label ?? chain.nativeCurrency.symbol,
    )
  else if (asset.type === 'ERC20')
    amount = withSymbol(formatTokenAmount(total, asset.decimals ?? DEFAULT_TOKEN_DECIMALS), label)
  else {
    const ids = entries.flatMap((entry) => (entry.token_id === undefined ? [] : [entry.token_id]))
    const idText = ids.map((id) => `#${id}`).join(', ')
    const count = asset.type === 'ERC1155' ? `${total} ` : ''
    amount = [count + (label ?? 'NFT'), idText].filter(Boolean).join(' ')
  }
  return usd === undefined ? { amount } : { amount, usd }
}
