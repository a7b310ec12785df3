import { api } from '../api.ts'
import type { Navigate } from '../route.ts'
import { useLoad } from '../use-load.ts'
import { usePages } from '../use-pages.ts'
import { PageButtons } from './PageButtons.tsx'
import { fail, time } from './shared.ts'

const ACTIONS: Record<string, string> = {
  'app.create': 'Created the app',
  'app.settings_update': 'Changed settings',
  'app.paymaster_signer_create': 'Created the paymaster signer',
  'app.credentials_set': 'Set credentials',
  'app.credentials_deleted': 'Removed credentials',
  'user.delete': 'Deleted a user',
  'user.sessions_revoke': "Ended a user's sessions",
  'user.session_revoke': "Ended a user's session",
  'user.mfa_reset': "Reset a user's MFA",
}

const describe = (detail: Record<string, unknown>) =>
  Object.entries(detail)
    .map(([key, value]) => `${key}: ${Array.isArray(value) ? value.join(', ') : String(value)}`)
    .join('; ')

/** Every change made in the console, newest first: who, what, where, when. */
export function AuditScreen(props: { navigate: Navigate; onError: (error: Error) => void }) {
  const { navigate, onError } = props
  const pages = usePages()
  const log = useLoad(
    () => api.audit(pages.cursor || undefined).catch(fail(onError)),
    `audit:${pages.cursor}`,
  )
  return (
    <>
      <h1>Audit log</h1>
      {log.error && <p className="error">{log.error.message}</p>}
      {log.data && log.data.data.length === 0 && <p className="muted">No changes yet.</p>}
      <table aria-label="Audit log">
        <thead>
          <tr>
            <th>When</th>
            <th>Admin</th>
            <th>Action</th>
            <th>App</th>
            <th>Target</th>
            <th>Detail</th>
          </tr>
        </thead>
        <tbody>
          {log.data?.data.map((entry) => {
            const appId = entry.app_id
            return (
              <tr key={entry.id}>
                <td>{time(entry.created_at)}</td>
                <td>{entry.admin_name ?? entry.admin_id}</td>
                <td>{ACTIONS[entry.action] ?? entry.action}</td>
                <td>
                  {appId && (
                    <button
                      type="button"
                      className="link"
                      onClick={() => navigate({ screen: 'app', appId })}
                    >
                      <code>{appId}</code>
                    </button>
                  )}
                </td>
                <td>
                  <code>{entry.target}</code>
                </td>
                <td className="muted">{describe(entry.detail)}</td>
              </tr>
            )
          })}
        </tbody>
      </table>
      <PageButtons pages={pages} nextCursor={log.data?.next_cursor} />
    </>
  )
}
