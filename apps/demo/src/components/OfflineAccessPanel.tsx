import { type User, useDelegatedActions } from '@latchkey/react'
import { useState } from 'react'
import { describeError } from './describe-error.ts'

/**
 * Delegated actions (spec 03 "Delegated actions"): for each embedded wallet,
 * whether the app may use it while the user is offline, 'Delegate' (the
 * consent screen 'Enable offline access') and 'Revoke' (the revoke screen,
 * for every delegated wallet at once).
 */
export function OfflineAccessPanel({ user }: { user: User }) {
  const { delegateWallet, revokeWallets } = useDelegatedActions()
  const [error, setError] = useState<string | null>(null)
  const wallets = user.linkedAccounts.flatMap((a) =>
    a.type === 'wallet' && a.connectorType === 'embedded' ? [a] : [],
  )
  if (wallets.length === 0) return null
  const run = (action: () => Promise<unknown>) => () => {
    setError(null)
    action().catch((e: unknown) => setError(describeError(e)))
  }
  return (
    <div className="section">
      <h3 className="section-title">Offline access</h3>
      <dl className="fields">
        {wallets.map((wallet) => (
          <div className="field" key={wallet.address}>
            <dt>
              {wallet.chainType === 'ethereum' ? 'Ethereum' : 'Solana'}{' '}
              <code>{`${wallet.address.slice(0, 6)}…${wallet.address.slice(-4)}`}</code>
            </dt>
            <dd className="actions">
              <span data-testid={`delegated-${wallet.chainType}`}>
                {wallet.delegated ? 'Delegated' : 'Not delegated'}
              </span>
              <button
                type="button"
                className="button button-secondary"
                disabled={wallet.delegated}
                data-testid={`delegate-${wallet.chainType}`}
                onClick={run(() =>
                  delegateWallet({ address: wallet.address, chainType: wallet.chainType }),
                )}
              >
                Delegate
              </button>
            </dd>
          </div>
        ))}
      </dl>
      <div className="actions">
        <button
          type="button"
          className="button button-secondary"
          disabled={!wallets.some((w) => w.delegated)}
          onClick={run(() => revokeWallets())}
        >
          Revoke offline access
        </button>
      </div>
      {error && (
        <p className="muted" role="alert" data-testid="offline-access-error">
          {error}
        </p>
      )}
    </div>
  )
}
