import { useState } from 'react'
import { type AppEventType, api } from '../api.ts'
import type { Navigate } from '../route.ts'
import { useLoad } from '../use-load.ts'
import { usePages } from '../use-pages.ts'
import { PageButtons } from './PageButtons.tsx'
import { fail, time } from './shared.ts'

const TYPES: Record<AppEventType, string> = {
  'user.created': 'Signed up',
  'session.created': 'Logged in',
  'wallet.key_released': 'Wallet key released',
}

const describe = (detail: Record<string, unknown>) =>
  Object.entries(detail)
    .map(([key, value]) => `${key}: ${String(value)}`)
    .join(', ')

/** What happened in an app, newest first: sign-ups, logins, key releases. */
export function EventsScreen(props: {
  appId: string
  navigate: Navigate
  onError: (error: Error) => void
}) {
  const { appId, navigate, onError } = props
  const [type, setType] = useState<AppEventType | ''>('')
  const pages = usePages()
  const events = useLoad(
    () => api.events(appId, pages.cursor || undefined, type || undefined).catch(fail(onError)),
    `${appId}:${type}:${pages.cursor}`,
  )
  return (
    <>
      <h1>Events</h1>
      <p>
        <button type="button" className="link" onClick={() => navigate({ screen: 'app', appId })}>
          App settings
        </button>{' '}
        ·{' '}
        <button type="button" className="link" onClick={() => navigate({ screen: 'users', appId })}>
          Users
        </button>
      </p>
      <label className="narrow-field">
        Show
        <select
          value={type}
          onChange={(e) => {
            pages.first()
            setType(e.target.value as AppEventType | '')
          }}
        >
          <option value="">Every event</option>
          {Object.entries(TYPES).map(([value, label]) => (
            <option key={value} value={value}>
              {label}
            </option>
          ))}
        </select>
      </label>
      {events.error && <p className="error">{events.error.message}</p>}
      {events.data && events.data.data.length === 0 && <p className="muted">No events.</p>}
      <table aria-label="Events">
        <thead>
          <tr>
            <th>When</th>
            <th>Event</th>
            <th>User</th>
            <th>Detail</th>
          </tr>
        </thead>
        <tbody>
          {events.data?.data.map((event) => (
            <tr key={`${event.type}:${event.id}`}>
              <td>{time(event.created_at)}</td>
              <td>{TYPES[event.type] ?? event.type}</td>
              <td>
                <button
                  type="button"
                  className="link"
                  onClick={() => navigate({ screen: 'user', appId, userId: event.user_id })}
                >
                  {event.user_id}
                </button>
              </td>
              <td className="muted">{describe(event.detail)}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <PageButtons pages={pages} nextCursor={events.data?.next_cursor} />
    </>
  )
}
