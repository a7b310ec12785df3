import type { Chain } from 'viem'
import { AddressValue, Row } from './Row.tsx'

interface AddressRowProps {
  address: string
  chain: Chain
}

/** Who an approval lets spend the wallet's tokens (the spender, or the operator of setApprovalForAll). */
export function SpenderRow({ address, chain }: AddressRowProps) {
  return (
    <Row label="Spender">
      <AddressValue address={address} chain={chain} />
    </Row>
  )
}

/** The recipient: the address sent to, or a token transfer's recipient. */
export function ToRow({ address, chain }: AddressRowProps) {
  return (
    <Row label="To">
      <AddressValue address={address} chain={chain} />
    </Row>
  )
}

/** The token contract a token call goes to. */
export function TokenAddressRow({ address, chain }: AddressRowProps) {
  return (
    <Row label="Token address">
      <AddressValue address={address} chain={chain} />
    </Row>
  )
}
