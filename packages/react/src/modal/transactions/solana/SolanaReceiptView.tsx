import type { PreparedSolanaTransaction } from '@latchkey/core/solana'
import type {
  SolanaCluster,
  SolanaStepResult,
  TransactionUiOptions,
} from '../../../transaction-requests.ts'
import { CheckIcon } from '../../components/icons.tsx'
import { ScreenLayout } from '../../components/ScreenLayout.tsx'
import { StatusIcon } from '../../components/StatusIcon.tsx'
import { HashRow } from '../HashRow.tsx'
import { AmountValue, Row } from '../rows/Row.tsx'
import { SolanaAddress } from './SolanaRows.tsx'
import { firstRecipient, lamportsSent, solText, solUsd } from './solana-display.ts'

export interface SolanaReceiptViewProps {
  mode: 'send' | 'sign'
  address: string
  cluster: SolanaCluster
  uiOptions: TransactionUiOptions
  prepared: PreparedSolanaTransaction
  result: SolanaStepResult
  /** SOL's USD price (spec 03 §7); null: no dollar values. */
  usdPrice?: number | null
  explorerUrl(signature: string): string
  onDone(): void
}

/**
 * Spec 03 "Solana transaction confirm" receipt: 'Transaction complete!'
 * (sent) or 'Transaction signed!' (signed only), or the app's
 * `successHeader`; rows Total (the SOL sent plus the fee) and Fees (what the
 * ledger charged; the estimate when only signed), each with its dollar value
 * when SOL has a price, and To; a sent transaction's signature with copy and
 * explorer link; 'All Done'.
 */
export function SolanaReceiptView({
  mode,
  address,
  cluster,
  uiOptions,
  prepared,
  result,
  usdPrice = null,
  explorerUrl,
  onDone,
}: SolanaReceiptViewProps) {
  const fees = result.fees ?? prepared.fee
  const total = lamportsSent(prepared.instructions, address) + fees
  const to = firstRecipient(prepared.instructions)
  const title =
    uiOptions.successHeader ?? (mode === 'send' ? 'Transaction complete!' : 'Transaction signed!')
  return (
    <ScreenLayout
      title={title}
      subtitle={uiOptions.successDescription ?? "You're all set."}
      media={
        <StatusIcon tone="success">
          <CheckIcon />
        </StatusIcon>
      }
    >
      <dl className="lk-tx-rows">
        <Row label="Total">
          <AmountValue amount={solText(total)} usd={solUsd(total, usdPrice)} />
        </Row>
        <Row label="Fees">
          <AmountValue amount={solText(fees)} usd={solUsd(fees, usdPrice)} />
        </Row>
        {to && (
          <Row label="To">
            <SolanaAddress address={to} cluster={cluster} />
          </Row>
        )}
      </dl>
      {result.signature && (
        <HashRow
          hash={result.signature}
          explorerUrl={explorerUrl(result.signature)}
          label="Signature"
        />
      )}
      <div className="lk-actions">
        <button type="button" className="lk-btn lk-btn-primary" onClick={onDone} autoFocus>
          All Done
        </button>
      </div>
    </ScreenLayout>
  )
}
