import { useState } from 'react'
import { api } from '../api.ts'
import type { Navigate } from '../route.ts'
import { useLoad } from '../use-load.ts'
import { Confirm } from './Confirm.tsx'
import { accountLabel, fail, time } from './shared.ts'
import { UserSessions } from './UserSessions.tsx'

const sessionsEnded = (n: number) => `Ended ${n} session${n === 1 ? '' : 's'}.`

/** One user: linked accounts, wallets, MFA, sessions; end sessions, reset MFA, delete them. */
export function UserScreen(props: {
  appId: string
  userId: string
  navigate: Navigate
  onError: (error: Error) => void
}) {
  const { appId, userId, navigate, onError } = props
  const detail = useLoad(() => api.user(appId, userId).catch(fail(onError)), `${appId}:${userId}`)
  const [notice, setNotice] = useState<string>()
  const [error, setError] = useState<string>()
  /** Runs a change; on success shows `message(result)` and reads the user again. */
  const act =
    <T,>(run: () => Promise<T>, message: (result: T) => string) =>
    () => {
      setNotice(undefined)
      setError(undefined)
      run().then(
        (result) => {
          setNotice(message(result))
          detail.reload()
        },
        (e: Error) => setError(e.message),
      )
    }
  const remove = () =>
    api.deleteUser(appId, userId).then(
      () => navigate({ screen: 'users', appId }),
      (e: Error) => setError(e.message),
    )
  if (detail.error) return <p className="error">{detail.error.message}</p>
  const data = detail.data
  if (!data) return <p className="muted">Loading…</p>
  const mfa = data.user.mfa_methods
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
      <p>{mfa.length ? mfa.join(', ') : 'None enrolled.'}</p>
      {mfa.length > 0 && (
        <Confirm
          label="Reset MFA"
          title="Confirm MFA reset"
          confirmLabel="Reset MFA for good"
          onConfirm={act(
            () => api.resetMfa(appId, userId),
            ({ methods }) => `Reset MFA (${methods.join(', ')}); every session ended.`,
          )}
        >
          Remove every MFA method of this user and end all their sessions? Check who is asking
          first: the reset takes away the second factor that protects their wallet.
        </Confirm>
      )}
      <UserSessions
        sessions={data.sessions}
        revokeOne={(sessionId) =>
          act(
            () => api.revokeSession(appId, userId, sessionId),
            ({ revoked }) => (revoked ? 'Ended the session.' : 'That session had already ended.'),
          )()
        }
        revokeAll={act(
          () => api.revokeSessions(appId, userId),
          ({ revoked }) => sessionsEnded(revoked),
        )}
      />
      <div className="row">
        <Confirm
          label="Delete user"
          title="Confirm deletion"
          confirmLabel="Delete for good"
          onConfirm={remove}
        >
          Delete this user, their linked accounts, their embedded wallets (with the server&apos;s
          shares and recovery material) and every session? This cannot be undone.
        </Confirm>
      </div>
    </>
  )
}
