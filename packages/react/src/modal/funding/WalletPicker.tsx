import { type LatchkeyError, toLatchkeyError } from '@latchkey/core'
import type {
  ConnectedExternalWallet,
  ExternalWallets,
  WalletOption,
} from '@latchkey/core/external'
import { useEffect, useState, useSyncExternalStore } from 'react'
import { Spinner } from '../components/Spinner.tsx'
import { shortHex } from '../transactions/ethereum-display.ts'
import type { FundWalletRequest } from './request.ts'

const EMPTY: readonly ConnectedExternalWallet[] = []

/** The manager's connected wallets of one chain, following its changes. */
function useConnectedWallets(
  manager: ExternalWallets | null,
  chainType: 'ethereum' | 'solana',
): readonly ConnectedExternalWallet[] {
  const wallets = useSyncExternalStore(
    (listener) => manager?.subscribe(listener) ?? (() => undefined),
    () => manager?.getState().wallets ?? EMPTY,
  )
  return wallets.filter((w) => w.type === chainType)
}

export interface WalletPickerProps {
  request: FundWalletRequest
  /** The chain of the paying wallet (Ethereum when bridging to Solana). */
  chainType: 'ethereum' | 'solana'
  onPick(wallet: ConnectedExternalWallet): void
  onError(error: LatchkeyError | null): void
}

/**
 * Spec 03 "Transfer from wallet": the user's connected external wallets of
 * the chain, then "more wallets" — the installed ones, connected right here.
 */
export function WalletPicker({ request, chainType, onPick, onError }: WalletPickerProps) {
  const [manager, setManager] = useState<ExternalWallets | null>(null)
  const [failed, setFailed] = useState(false)
  const [connecting, setConnecting] = useState<string | null>(null)
  const wallets = useConnectedWallets(manager, chainType)

  useEffect(() => {
    let live = true
    request.externalWallets().then(
      (loaded) => live && setManager(loaded),
      (e: unknown) => {
        if (!live) return
        setFailed(true)
        onError(toLatchkeyError(e))
      },
    )
    return () => {
      live = false
    }
  }, [request, onError])

  const more: WalletOption[] = manager
    ? manager
        .options({ walletChainType: chainType === 'ethereum' ? 'ethereum-only' : 'solana-only' })
        .filter((o) => o.installed && !wallets.some((w) => w.walletClientType === o.id))
    : []

  async function connect(option: WalletOption) {
    if (!manager) return
    onError(null)
    setConnecting(option.key)
    try {
      onPick(await manager.connect(option.key, chainType))
    } catch (e) {
      onError(toLatchkeyError(e))
    } finally {
      setConnecting(null)
    }
  }

  return (
    <div className="lk-stack lk-wallet-list lk-fund-wallets">
      {!manager && !failed && <Spinner label="Loading wallets" />}
      <ul className="lk-options">
        {wallets.map((wallet) => (
          <li key={`${wallet.walletClientType}:${wallet.address}`}>
            <button
              type="button"
              className="lk-option lk-wallet-row"
              onClick={() => {
                onError(null)
                onPick(wallet)
              }}
            >
              <span className="lk-wallet-name">{wallet.meta.name}</span>
              <code>{shortHex(wallet.address)}</code>
            </button>
          </li>
        ))}
        {more.map((option) => (
          <li key={option.key}>
            <button
              type="button"
              className="lk-option lk-wallet-row"
              disabled={connecting !== null}
              onClick={() => void connect(option)}
            >
              <span className="lk-wallet-name">{option.name}</span>
              {connecting === option.key ? <Spinner size="sm" /> : <em>Connect</em>}
            </button>
          </li>
        ))}
      </ul>
      {manager && wallets.length === 0 && more.length === 0 && (
        <p className="lk-message">No wallet found in this browser.</p>
      )}
    </div>
  )
}
