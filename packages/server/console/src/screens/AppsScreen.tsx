import { type FormEvent, useState } from 'react'
import { api } from '../api.ts'
import type { Navigate } from '../route.ts'
import { useLoad } from '../use-load.ts'
import { fail } from './shared.ts'

/** Every app, and a form to create one (as `latchkey apps create`). */
export function AppsScreen(props: { navigate: Navigate; onError: (error: Error) => void }) {
  const { navigate, onError } = props
  const apps = useLoad(() => api.apps().catch(fail(onError)), 'apps')
  const [name, setName] = useState('')
  const [origins, setOrigins] = useState('')
  const [error, setError] = useState<string>()
  const create = (event: FormEvent) => {
    event.preventDefault()
    setError(undefined)
    const list = origins.split(/[\s,]+/).filter(Boolean)
    api.createApp(name, list).then(
      ({ app }) => navigate({ screen: 'app', appId: app.id }),
      (e: Error) => setError(e.message),
    )
  }
  return (
    <>
      <h1>Apps</h1>
      {apps.error && <p className="error">{apps.error.message}</p>}
      <table>
        <thead>
          <tr>
            <th>Name</th>
            <th>Id</th>
            <th>Origins</th>
            <th />
          </tr>
        </thead>
        <tbody>
          {apps.data?.apps.map((app) => (
            <tr key={app.id}>
              <td>
                <button
                  type="button"
                  className="link"
                  onClick={() => navigate({ screen: 'app', appId: app.id })}
                >
                  {app.name}
                </button>
              </td>
              <td>
                <code>{app.id}</code>
              </td>
              <td>{app.origins.join(' ')}</td>
              <td>
                <button type="button" onClick={() => navigate({ screen: 'users', appId: app.id })}>
                  Users
                </button>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      <form className="card" onSubmit={create} aria-label="Create an app">
        <h2>Create an app</h2>
        <label>
          Name
          <input value={name} onChange={(e) => setName(e.target.value)} required />
        </label>
        <label>
          Allowed origins (space-separated)
          <input
            value={origins}
            onChange={(e) => setOrigins(e.target.value)}
            placeholder="https://app.example.com"
            required
          />
        </label>
        <p className="muted">
          The app&apos;s backend secret is not shown here: make one with{' '}
          <code>latchkey apps secret create ID</code>.
        </p>
        {error && (
          <p role="alert" className="error">
            {error}
          </p>
        )}
        <button type="submit">Create app</button>
      </form>
    </>
  )
}
