import { type User, useDeleteAccount, useLatchkey } from '@latchkey/react'
import { useState } from 'react'
import { ExternalWallets } from './ExternalWallets.tsx'
import { FarcasterSignerPanel } from './FarcasterSignerPanel.tsx'
import { FundPanel } from './FundPanel.tsx'
import { KeyActivity } from './KeyActivity.tsx'
import { LinkedAccounts } from './LinkedAccounts.tsx'
import { Mfa } from './Mfa.tsx'
import { OfflineAccessPanel } from './OfflineAccessPanel.tsx'
import { Passkeys } from './Passkeys.tsx'
import { SendPanel } from './SendPanel.tsx'
import { SmartWalletPanel } from './SmartWalletPanel.tsx'
import { WagmiPanel } from './WagmiPanel.tsx'
import { Wallets } from './Wallets.tsx'

export function UserPanel({ user }: { user: User }) {
  const { logout } = useLatchkey()
  const { deleteAccount } = useDeleteAccount()
  const [leaving, setLeaving] = useState(false)
  const name = user.email?.address ?? user.phone?.number ?? user.id
  return (
    <section className="card" aria-labelledby="user-title">
      <div className="user-head">
        <span className="avatar" aria-hidden="true">
          {name.slice(0, 1).toUpperCase()}
        </span>
        <div className="user-head-text">
          <h2 id="user-title" className="card-title">
            {user.isGuest ? "You're a guest" : "You're logged in"}
          </h2>
          <p className="muted">Member since {user.createdAt.toLocaleDateString()}</p>
        </div>
        <button
          type="button"
          className="button button-secondary"
          disabled={leaving}
          onClick={async () => {
            setLeaving(true)
            try {
              await logout()
            } finally {
              setLeaving(false)
            }
          }}
        >
          {leaving ? 'Logging out…' : 'Log out'}
        </button>
        <button
          type="button"
          className="button button-secondary button-danger"
          disabled={leaving}
          // The modal asks first and shows any failure; once deleted the session is over and
          // Home shows the logged-out card. Cancelling is not an error worth showing.
          onClick={() => void deleteAccount().catch(() => undefined)}
        >
          Delete account
        </button>
      </div>

      <dl className="fields">
        <div className="field">
          <dt>User ID</dt>
          <dd>
            <code data-testid="user-id">{user.id}</code>
          </dd>
        </div>
        <div className="field">
          <dt>Email</dt>
          <dd data-testid="user-email">{user.email?.address ?? '—'}</dd>
        </div>
        <div className="field">
          <dt>Phone</dt>
          <dd data-testid="user-phone">{user.phone?.number ?? '—'}</dd>
        </div>
        <div className="field">
          <dt>Terms</dt>
          <dd data-testid="user-terms">{user.hasAcceptedTerms ? 'Accepted' : 'Not accepted'}</dd>
        </div>
      </dl>

      <Wallets />

      <SendPanel />
      <SmartWalletPanel />
      <WagmiPanel />
      <FundPanel />

      <ExternalWallets />

      <LinkedAccounts accounts={user.linkedAccounts} />

      <Passkeys />

      <FarcasterSignerPanel user={user} />

      <OfflineAccessPanel user={user} />

      <Mfa />

      <KeyActivity />
    </section>
  )
}
