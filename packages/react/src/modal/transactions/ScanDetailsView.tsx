import {
  type AssetDiff,
  formatTokenAmount,
  isUnlimitedApproval,
  type TransactionScanResult,
} from '@latchkey/core/transactions'
import type { Chain } from 'viem'
import { ScreenLayout } from '../components/ScreenLayout.tsx'
import { assetChangeText } from './ethereum-display.ts'
import { AddressValue, AmountValue, Row } from './rows/Row.tsx'

type Exposure = NonNullable<TransactionScanResult['simulation']>['exposures'][number]
type Spender = Exposure['spenders'][number]

const assetKey = (asset: AssetDiff['asset']) =>
  `${asset.type}-${asset.address ?? asset.symbol ?? ''}`
const assetName = (asset: AssetDiff['asset']) => asset.symbol ?? asset.name ?? asset.type

/** What a spender may take: everything (setApprovalForAll, an unlimited allowance) or an amount. */
function allowanceText(asset: AssetDiff['asset'], spender: Spender): string | null {
  if (spender.is_approved_for_all) return 'All'
  if (spender.value === undefined) return null
  if (asset.type !== 'ERC20') return `#${spender.value}`
  if (isUnlimitedApproval(spender.value)) return 'Maximum'
  return `${formatTokenAmount(spender.value, asset.decimals ?? 18)} ${assetName(asset)}`
}

function AssetChanges({ diffs, chain }: { diffs: AssetDiff[]; chain: Chain }) {
  const rows = diffs.flatMap((diff) =>
    (['out', 'in'] as const).map((side) => {
      const change = assetChangeText(diff, side, chain)
      if (!change) return null
      return (
        <Row key={`${assetKey(diff.asset)}-${side}`} label={side === 'out' ? 'Send' : 'Receive'}>
          <AmountValue amount={change.amount} usd={change.usd} />
        </Row>
      )
    }),
  )
  return <dl className="lk-tx-rows">{rows}</dl>
}

function Exposures({ exposures, chain }: { exposures: Exposure[]; chain: Chain }) {
  return (
    <dl className="lk-tx-rows">
      {exposures.flatMap((exposure) =>
        exposure.spenders.map((spender) => {
          const allowance = allowanceText(exposure.asset, spender)
          return (
            <Row
              key={`${assetKey(exposure.asset)}-${spender.address}`}
              label={assetName(exposure.asset)}
            >
              <AddressValue address={spender.address} chain={chain} />
              {allowance && <span className="lk-tx-usd">{allowance}</span>}
            </Row>
          )
        }),
      )}
    </dl>
  )
}

/**
 * Spec 03 "Ethereum transaction confirm" extra screen "scan details": the
 * scanner's verdict, every asset change the simulation saw (with dollar
 * values when the scan priced them) and every spending right the
 * transaction grants. Back returns to the confirm screen.
 */
export function ScanDetailsView({
  result,
  chain,
  onBack,
}: {
  result: TransactionScanResult
  chain: Chain
  onBack(): void
}) {
  const { validation, simulation } = result
  const diffs = simulation?.assets_diffs ?? []
  const exposures = simulation?.exposures ?? []
  return (
    <ScreenLayout title="Scan details" onBack={onBack}>
      {validation && (
        <div className="lk-info" data-testid="lk-scan-verdict">
          <strong>{validation.result_type}</strong>
          {validation.reason ?? validation.description}
        </div>
      )}
      {simulation?.status === 'Error' && simulation.error && (
        <p className="lk-tx-scan">{simulation.error}</p>
      )}
      {diffs.length > 0 && (
        <section className="lk-stack" aria-label="Asset changes">
          <p className="lk-field-label">Asset changes</p>
          <AssetChanges diffs={diffs} chain={chain} />
        </section>
      )}
      {exposures.length > 0 && (
        <section className="lk-stack" aria-label="Approvals">
          <p className="lk-field-label">Approvals</p>
          <Exposures exposures={exposures} chain={chain} />
        </section>
      )}
    </ScreenLayout>
  )
}
