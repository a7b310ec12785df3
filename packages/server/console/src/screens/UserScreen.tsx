import { useState } from 'react'
import { api } from '../api.ts'
import type { Navigate } from '../route.ts'
import { useLoad } from '../use-load.ts'
import { accountLabel, fail } from './shared.ts'

const time = (ms: number) => new Date(ms).toLocaleString()

/** One user: linked accounts, wallets, MFA, sessions; revoke their sessions or delete them. */
export function UserScreen(props: {
  appId: string
  userId: string
  navigate: Navigate
  onError: (error: Error) => void
}) {
  const { appId, userId, navigate, onError } = props
  const detail = useLoad(() => api.user(appId, userId).catch(fail(onError)), `${appId}:${userId}`)
  const [confirming, setConfirming] = useState(false)
  const [notice, setNotice] = useState<string>()
  const [error, setError] = useState<string>()
  const revoke = () =>
    api.revokeSessions(appId, userId).then(
      ({ revoked }) => {
        setNotice(`Ended ${revoked} session${revoked === 1 ? '' : 's'}.`)
        detail.reload()
      },
      (e: Error) => setError(e.message),
    )
  const remove = () =>
    api.deleteUser(appId, userId).then(
      () => navigate({ screen: 'users', appId }),
      (e: Error) => setError(e.message),
    )
  if (detail.error) return <p className="error">{detail.error.message}</p>
  const data = detail.data
  if (!data) return <p className="muted">Loading…</p>
  const live = data.sessions.filter((s) => s.live).length
  return (
    <>
      <h1>User</h1>
      <p>
        <code>{data.user.id}</code> · created {time(data.user.created_at * 1000)} ·{' '}
        <button type="button" className="link" onClick={() => navigate({ screen: 'users', appId })}>
          All users
        </button>
      </p>
      {notice && (
        <p role="status" className="ok">
          {notice}
        </p>
      )}
      {error && (
        <p role="alert" className="error">
          {error}
        </p>
      )}
      <h2>Linked accounts</h2>
      <ul className="list">
        {data.user.linked_accounts.map((account) => (
          <li key={`${account.type} ${accountLabel(account)}`}>{accountLabel(account)}</li>
        ))}
      </ul>
      <h2>Wallets</h2>
      {data.wallets.length === 0 && <p className="muted">No embedded wallet.</p>}
      <ul className="list">
        {data.wallets.map((w) => (
          <li key={w.id}>
            <code>{w.address}</code>{' '}
            <span className="muted">
              {w.chain_type}, recovery {w.recovery_method}
            </span>
          </li>
        ))}
      </ul>
      <h2>MFA</h2>
      <p>{data.user.mfa_methods.length ? data.user.mfa_methods.join(', ') : 'None enrolled.'}</p>
      <h2>Sessions</h2>
      <p>{live} live</p>
      <table>
        <thead>
          <tr>
            <th>Started</th>
            <th>Last used</th>
            <th>State</th>
          </tr>
        </thead>
        <tbody>
          {data.sessions.map((s) => (
            <tr key={s.id}>
              <td>{time(s.created_at)}</td>
              <td>{time(s.last_used_at)}</td>
              <td>{s.live ? 'live' : s.revoked_at ? 'revoked' : 'expired'}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <div className="row">
        <button type="button" onClick={revoke} disabled={live === 0}>
          Revoke all sessions
        </button>
        {!confirming && (
          <button type="button" className="danger" onClick={() => setConfirming(true)}>
            Delete user
          </button>
        )}
      </div>
      {confirming && (
        <div className="card danger-zone" role="alertdialog" aria-label="Confirm deletion">
          <p>
            Delete this user, their linked accounts, their embedded wallets (with the server&apos;s
            shares and recovery material) and every session? This cannot be undone.
          </p>
          <div className="row">
            <button type="button" className="danger" onClick={remove}>
              Delete for good
            </button>
            <button type="button" onClick={() => setConfirming(false)}>
              Cancel
            </button>
          </div>
        </div>
      )}
    </>
  )
}
