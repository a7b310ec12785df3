import { type FormEvent, useState } from 'react'
import { api } from '../api.ts'
import type { Navigate } from '../route.ts'
import { useLoad } from '../use-load.ts'
import { usePages } from '../use-pages.ts'
import { PageButtons } from './PageButtons.tsx'
import { accountLabel, fail } from './shared.ts'

/** The app's users, 50 a page: find them by part of their id, email, phone number or wallet address. */
export function UsersScreen(props: {
  appId: string
  navigate: Navigate
  onError: (error: Error) => void
}) {
  const { appId, navigate, onError } = props
  const [input, setInput] = useState('')
  const [query, setQuery] = useState('')
  const pages = usePages()
  const users = useLoad(
    () => api.users(appId, query, pages.cursor || undefined).catch(fail(onError)),
    `${appId}:${query}:${pages.cursor}`,
  )
  const search = (event: FormEvent) => {
    event.preventDefault()
    pages.first()
    setQuery(input)
  }
  return (
    <>
      <h1>Users</h1>
      <p>
        <button type="button" className="link" onClick={() => navigate({ screen: 'app', appId })}>
          App settings
        </button>{' '}
        ·{' '}
        <button
          type="button"
          className="link"
          onClick={() => navigate({ screen: 'events', appId })}
        >
          Events
        </button>
      </p>
      <form className="row" onSubmit={search} aria-label="User search">
        <input
          aria-label="Search users"
          placeholder="Part of a user id, email, phone number or wallet address"
          value={input}
          onChange={(e) => setInput(e.target.value)}
        />
        <button type="submit">Search</button>
      </form>
      {users.error && <p className="error">{users.error.message}</p>}
      {users.data && users.data.users.length === 0 && <p className="muted">No user found.</p>}
      <ul className="list">
        {users.data?.users.map((user) => (
          <li key={user.id}>
            <button
              type="button"
              className="link"
              onClick={() => navigate({ screen: 'user', appId, userId: user.id })}
            >
              {user.id}
            </button>
            <span className="muted"> {user.linked_accounts.map(accountLabel).join(', ')}</span>
          </li>
        ))}
      </ul>
      <PageButtons pages={pages} nextCursor={users.data?.next_cursor} />
    </>
  )
}
