import { type FormEvent, useState } from 'react'
import { type Admin, api } from '../api.ts'

/** Sign in with an admin token from `latchkey admin create` (never an app secret). */
export function SignInScreen({ onSignedIn }: { onSignedIn: (admin: Admin) => void }) {
  const [token, setToken] = useState('')
  const [error, setError] = useState<string>()
  const [busy, setBusy] = useState(false)
  const submit = (event: FormEvent) => {
    event.preventDefault()
    setBusy(true)
    setError(undefined)
    api.login(token.trim()).then(
      ({ admin }) => onSignedIn(admin),
      (e: Error) => {
        setError(e.message)
        setBusy(false)
      },
    )
  }
  return (
    <form className="card narrow" onSubmit={submit}>
      <h1>Latchkey console</h1>
      <p className="muted">
        Sign in with an admin token. Make one on the server with{' '}
        <code>latchkey admin create NAME</code>.
      </p>
      <label>
        Admin token
        <input
          type="password"
          autoComplete="off"
          value={token}
          onChange={(e) => setToken(e.target.value)}
          required
        />
      </label>
      {error && (
        <p role="alert" className="error">
          {error}
        </p>
      )}
      <button type="submit" disabled={busy || !token.trim()}>
        Sign in
      </button>
    </form>
  )
}
