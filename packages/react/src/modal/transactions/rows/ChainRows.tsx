import type { PreparedEthereumTransaction } from '@latchkey/core/transactions'
import type { Chain } from 'viem'
import { nativeText, usdValue } from '../ethereum-display.ts'
import { AmountValue, Row } from './Row.tsx'

/** The chain's name ('Base', 'Anvil'). */
export function NetworkRow({ chain }: { chain: Chain }) {
  return <Row label="Network">{chain.name}</Row>
}

/**
 * 'Estimated fee': the most the gas can cost, in the chain's currency, with
 * its dollar value at `usdPrice` when there is one; 'Sponsored' when the app
 * pays it.
 */
export function FeeRow({
  prepared,
  sponsored,
  usdPrice = null,
}: {
  prepared: PreparedEthereumTransaction
  sponsored?: boolean
  usdPrice?: number | null
}) {
  const { estimatedFee, chain } = prepared
  return (
    <Row label="Estimated fee">
      {sponsored ? (
        'Sponsored'
      ) : (
        <AmountValue
          amount={nativeText(estimatedFee, chain)}
          usd={usdValue(estimatedFee, chain.nativeCurrency.decimals, usdPrice)}
        />
      )}
    </Row>
  )
}
