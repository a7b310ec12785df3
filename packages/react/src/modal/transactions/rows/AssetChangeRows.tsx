import type { AssetDiff } from '@latchkey/core/transactions'
import type { Chain } from 'viem'
import { assetChangeText } from '../ethereum-display.ts'
import { AmountValue, Row } from './Row.tsx'

interface AssetChangeRowsProps {
  diffs: AssetDiff[]
  chain: Chain
  /** The native currency's USD price, for a native change the scan did not price. */
  usdPrice?: number | null
}

function AssetChangeRows({
  diffs,
  chain,
  usdPrice = null,
  side,
}: AssetChangeRowsProps & { side: 'in' | 'out' }) {
  const label = side === 'out' ? 'Send' : 'Receive'
  return diffs.map((diff) => {
    const change = assetChangeText(diff, side, chain, usdPrice)
    if (!change) return null
    const key = `${side}-${diff.asset.type}-${diff.asset.address ?? diff.asset.symbol ?? ''}`
    return (
      <Row key={key} label={label}>
        <AmountValue amount={change.amount} usd={change.usd} />
      </Row>
    )
  })
}

/** 'Send': what the scan says leaves the wallet, one row per asset, with its dollar value when priced. */
export function SendRow(props: AssetChangeRowsProps) {
  return <AssetChangeRows {...props} side="out" />
}

/** 'Receive': what the scan says enters the wallet. */
export function ReceiveRow(props: AssetChangeRowsProps) {
  return <AssetChangeRows {...props} side="in" />
}
