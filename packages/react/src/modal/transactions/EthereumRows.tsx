import type { EthereumTransactionInput } from '@latchkey/core/transactions'
import type { Chain } from 'viem'
import { approvalText, nativeText, scanDiffs, tokenText, usdValue } from './ethereum-display.ts'
import { SpenderRow, TokenAddressRow, ToRow } from './rows/AddressRows.tsx'
import { AmountRow } from './rows/AmountRow.tsx'
import { ReceiveRow, SendRow } from './rows/AssetChangeRows.tsx'
import { FeeRow, NetworkRow } from './rows/ChainRows.tsx'
import { DetailsRow } from './rows/DetailsRow.tsx'
import type { EthereumStepState } from './useEthereumStep.ts'

export interface EthereumRowsProps {
  chain: Chain
  input: EthereumTransactionInput
  step: EthereumStepState
  sponsored?: boolean
  /** The native currency's USD price (spec 03 §7); null: no dollar values but the scan's. */
  usdPrice?: number | null
}

/**
 * Spec 03 §2 "Ethereum transaction confirm" rows, in order: Send, Receive
 * (the scan's asset changes), Amount or Approval amount, Spender, To, Token
 * address, Network, Estimated fee (or 'Sponsored'), then Details. With asset
 * changes from the scan, Send / Receive say what moves and Amount is left
 * out (an approval's amount stays: it moves nothing). Native amounts carry
 * their dollar value at `usdPrice`; token amounts only the scan's.
 */
export function EthereumRows({
  chain,
  input,
  step,
  sponsored,
  usdPrice = null,
}: EthereumRowsProps) {
  const { preview, prepared } = step
  const decoded = preview?.decoded
  const token = preview?.token ?? null
  const diffs = scanDiffs(step.scan) ?? []
  const to = prepared?.request.to ?? input.to ?? null
  const value = prepared?.request.value ?? input.value ?? 0n
  const data = prepared?.request.data ?? input.data
  const isCall = data !== undefined && data !== '0x'
  const isTokenCall = decoded !== undefined && decoded.action !== 'transaction'
  const isApproval = decoded?.action === 'approve'
  const spender = decoded?.spender ?? decoded?.operator
  const recipient = isTokenCall ? decoded?.transferTo : to

  let amount: { label?: 'Approval amount'; text: string; usd?: string } | null = null
  if (isApproval) {
    if (decoded.isErc20Ish && decoded.amount !== undefined)
      amount = { label: 'Approval amount', text: approvalText(decoded.amount, token) }
  } else if (diffs.length === 0) {
    if (isTokenCall && decoded.amount !== undefined)
      amount = {
        text: decoded.isErc20Ish
          ? tokenText(decoded.amount, token)
          : `${decoded.amount}${token?.symbol ? ` ${token.symbol}` : ''}`,
      }
    else if (!isTokenCall && (value > 0n || !isCall))
      amount = {
        text: nativeText(value, chain),
        usd: usdValue(value, chain.nativeCurrency.decimals, usdPrice),
      }
  }

  return (
    <>
      <dl className="lk-tx-rows">
        <SendRow diffs={diffs} chain={chain} usdPrice={usdPrice} />
        <ReceiveRow diffs={diffs} chain={chain} usdPrice={usdPrice} />
        {amount && <AmountRow label={amount.label} amount={amount.text} usd={amount.usd} />}
        {isApproval && spender && <SpenderRow address={spender} chain={chain} />}
        {!isApproval && recipient && <ToRow address={recipient} chain={chain} />}
        {isTokenCall && to && <TokenAddressRow address={to} chain={chain} />}
        <NetworkRow chain={chain} />
        {prepared && <FeeRow prepared={prepared} sponsored={sponsored} usdPrice={usdPrice} />}
      </dl>
      {isCall && (
        <DetailsRow functionName={decoded?.functionName} args={decoded?.args ?? []} data={data} />
      )}
    </>
  )
}
