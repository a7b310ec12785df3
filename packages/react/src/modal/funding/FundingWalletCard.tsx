import { shortHex } from '../transactions/ethereum-display.ts'

/**
 * The wallet being funded: its short address and balance; green once it
 * holds the requested amount (spec 03 §4 "Manual receive").
 */
export function FundingWalletCard({
  address,
  balance,
  enough,
}: {
  address: string
  balance?: string
  enough: boolean
}) {
  return (
    <div className="lk-wallet-card" data-testid="lk-wallet-card" data-funded={enough}>
      <span className="lk-wallet-card-address" title={address}>
        {shortHex(address)}
      </span>
      {balance !== undefined && <span className="lk-wallet-card-balance">{balance}</span>}
    </div>
  )
}
