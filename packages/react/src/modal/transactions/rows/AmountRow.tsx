import { AmountValue, Row } from './Row.tsx'

/**
 * 'Amount' (what a send or token transfer moves) or 'Approval amount' (an
 * ERC-20 allowance; 'Maximum' when unlimited, spec 03 §9).
 */
export function AmountRow({
  label = 'Amount',
  amount,
  usd,
}: {
  label?: 'Amount' | 'Approval amount'
  amount: string
  usd?: string
}) {
  return (
    <Row label={label}>
      <AmountValue amount={amount} usd={usd} />
    </Row>
  )
}
