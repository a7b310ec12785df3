import type { PreparedSolanaTransaction } from '@latchkey/core/solana'
import { solanaExplorerUrl } from '../../../hooks/solana-transactions.ts'
import { solanaClusterLabel } from '../../../solana-clusters.ts'
import type { SolanaCluster } from '../../../transaction-requests.ts'
import { AmountValue, Row } from '../rows/Row.tsx'
import {
  firstRecipient,
  lamportsSent,
  shortAddress,
  solText,
  solUsd,
  swapTexts,
  tokenTransferText,
} from './solana-display.ts'

/** A base58 address in short form (full on hover), linked to its explorer page on the cluster. */
export function SolanaAddress({ address, cluster }: { address: string; cluster: SolanaCluster }) {
  return (
    <a
      className="lk-tx-address"
      href={solanaExplorerUrl(cluster, `address/${address}`)}
      target="_blank"
      rel="noreferrer"
      title={address}
    >
      {shortAddress(address)}
    </a>
  )
}

export interface SolanaRowsProps {
  /** The paying wallet: what leaves it is the Amount. */
  address: string
  cluster: SolanaCluster
  prepared: PreparedSolanaTransaction
  /** SOL's USD price (spec 03 §7); null: no dollar values. */
  usdPrice?: number | null
}

/**
 * Spec 03 §2 "Solana transaction confirm" rows, in order: Amount (the SOL
 * leaving the wallet in transfers and account creations, else a token
 * transfer's amount), Swap (each Raydium or Jupiter swap's in and out), To
 * (the first transfer's recipient), Network and Estimated fee. SOL amounts
 * carry their dollar value at `usdPrice`.
 */
export function SolanaRows({ address, cluster, prepared, usdPrice = null }: SolanaRowsProps) {
  const { instructions } = prepared
  const sent = lamportsSent(instructions, address)
  const amount = sent > 0n ? solText(sent) : tokenTransferText(instructions, address)
  const amountUsd = sent > 0n ? solUsd(sent, usdPrice) : undefined
  const swaps = swapTexts(instructions)
  const to = firstRecipient(instructions)
  return (
    <dl className="lk-tx-rows">
      {amount && (
        <Row label="Amount">
          <AmountValue amount={amount} usd={amountUsd} />
        </Row>
      )}
      {swaps.map((swap, i) => (
        // Two swaps may read alike: their place tells them apart.
        // biome-ignore lint/suspicious/noArrayIndexKey: the list is fixed for this transaction
        <Row key={i} label="Swap">
          {swap}
        </Row>
      ))}
      {to && (
        <Row label="To">
          <SolanaAddress address={to} cluster={cluster} />
        </Row>
      )}
      <Row label="Network">{solanaClusterLabel(cluster.name)}</Row>
      <Row label="Estimated fee">
        <AmountValue amount={solText(prepared.fee)} usd={solUsd(prepared.fee, usdPrice)} />
      </Row>
    </dl>
  )
}
