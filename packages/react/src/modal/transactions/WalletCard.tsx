import { shortHex } from './ethereum-display.ts'

/** The paying wallet: its address in short form and, once read, its balance. */
export function WalletCard({ address, balance }: { address: string; balance?: string }) {
  return (
    <div className="lk-wallet-card" data-testid="lk-wallet-card">
      <span className="lk-wallet-card-address" title={address}>
        {shortHex(address)}
      </span>
      {balance !== undefined && <span className="lk-wallet-card-balance">{balance}</span>}
    </div>
  )
}
