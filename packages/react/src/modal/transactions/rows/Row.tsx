import type { ReactNode } from 'react'
import type { Chain } from 'viem'
import { explorerAddressUrl } from '../../explorer.ts'
import { shortHex } from '../ethereum-display.ts'

/** One line of the confirm screen's table: a label and its value (inside `<dl className="lk-tx-rows">`). */
export function Row({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="lk-tx-row">
      <dt>{label}</dt>
      <dd>{children}</dd>
    </div>
  )
}

/** An amount, with its dollar value under it when the scan priced it. */
export function AmountValue({ amount, usd }: { amount: string; usd?: string }) {
  return (
    <>
      <span>{amount}</span>
      {usd && <span className="lk-tx-usd">{usd}</span>}
    </>
  )
}

/** An address in short form (full on hover), linked to the chain's explorer when it has one. */
export function AddressValue({ address, chain }: { address: string; chain: Chain }) {
  const url = explorerAddressUrl(address, 'ethereum', chain)
  if (!url)
    return (
      <span className="lk-tx-address" title={address}>
        {shortHex(address)}
      </span>
    )
  return (
    <a className="lk-tx-address" href={url} target="_blank" rel="noreferrer" title={address}>
      {shortHex(address)}
    </a>
  )
}
