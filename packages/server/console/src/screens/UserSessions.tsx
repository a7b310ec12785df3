import type { UserSession } from '../api.ts'
import { time } from './shared.ts'

/** A user's sessions, newest first: end one, or every live one. */
export function UserSessions(props: {
  sessions: UserSession[]
  revokeOne: (sessionId: string) => void
  revokeAll: () => void
}) {
  const { sessions, revokeOne, revokeAll } = props
  const live = sessions.filter((s) => s.live).length
  return (
    <>
      <h2>Sessions</h2>
      <p>{live} live</p>
      <table>
        <thead>
          <tr>
            <th>Started</th>
            <th>Last used</th>
            <th>State</th>
            <th />
          </tr>
        </thead>
        <tbody>
          {sessions.map((s) => (
            <tr key={s.id}>
              <td>{time(s.created_at)}</td>
              <td>{time(s.last_used_at)}</td>
              <td>{s.live ? 'live' : s.revoked_at ? 'revoked' : 'expired'}</td>
              <td>
                {s.live && (
                  <button
                    type="button"
                    aria-label={`Revoke session started ${time(s.created_at)}`}
                    onClick={() => revokeOne(s.id)}
                  >
                    Revoke
                  </button>
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      <div className="row">
        <button type="button" onClick={revokeAll} disabled={live === 0}>
          Revoke all sessions
        </button>
      </div>
    </>
  )
}
