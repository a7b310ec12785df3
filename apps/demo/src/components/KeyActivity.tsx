import { useKeyActivity } from '@latchkey/react'

const KIND_LABEL = { auth_share: 'Signing / export', recovery: 'Recovery' } as const

const short = (value: string) =>
  value.length > 14 ? `${value.slice(0, 8)}…${value.slice(-4)}` : value

/**
 * The logged-in user's key activity: each time the server released key
 * material (the auth share for signing or export, the recovery material on a
 * new device) to one of their sessions, newest first.
 */
export function KeyActivity() {
  const { activity, loading, error, refresh } = useKeyActivity({ limit: 10 })
  return (
    <div className="section">
      <h3 className="section-title" id="key-activity-title">
        Key activity
      </h3>
      <div className="actions">
        <button
          type="button"
          className="button button-secondary"
          disabled={loading}
          onClick={() => void refresh()}
        >
          {loading ? 'Loading…' : 'Refresh'}
        </button>
      </div>
      {error && (
        <p className="error" role="alert">
          {error.message}
        </p>
      )}
      {activity.length === 0 ? (
        <p className="muted">{loading ? 'Loading…' : 'None yet.'}</p>
      ) : (
        <table className="table" aria-labelledby="key-activity-title">
          <thead>
            <tr>
              <th scope="col">When</th>
              <th scope="col">What</th>
              <th scope="col">Wallet</th>
              <th scope="col">IP</th>
            </tr>
          </thead>
          <tbody>
            {activity.map((release) => (
              <tr key={release.id}>
                <td>{release.createdAt.toLocaleString()}</td>
                <td>
                  <span className="type-pill">{KIND_LABEL[release.kind]}</span>
                </td>
                <td className="mono" title={release.entropyId}>
                  {short(release.entropyId)}
                </td>
                <td className="mono">{release.ip ?? '—'}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </div>
  )
}
