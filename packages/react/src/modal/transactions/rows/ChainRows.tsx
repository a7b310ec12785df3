import type { PreparedEthereumTransaction } from '@latchkey/core/transactions'
import type { Chain } from 'viem'
import { nativeText } from '../ethereum-display.ts'
import { Row } from './Row.tsx'

/** The chain's name ('Base', 'Anvil'). */
export function NetworkRow({ chain }: { chain: Chain }) {
  return <Row label="Network">{chain.name}</Row>
}

/**
 * 'Estimated fee': the most the gas can cost, in the chain's currency (no
 * dollar value: there is no price source); 'Sponsored' when the app pays it.
 */
export function FeeRow({
  prepared,
  sponsored,
}: {
  prepared: PreparedEthereumTransaction
  sponsored?: boolean
}) {
  return (
    <Row label="Estimated fee">
      {sponsored ? 'Sponsored' : nativeText(prepared.estimatedFee, prepared.chain)}
    </Row>
  )
}
