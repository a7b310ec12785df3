import { Component, type ReactNode } from 'react'

/** How to point the demo at an app, with what went wrong. */
export function ConfigError({ message }: { message: string }) {
  return (
    <section className="card card-center" aria-labelledby="config-error-title">
      <h2 id="config-error-title" className="card-title">
        Configuration needed
      </h2>
      <p className="muted" role="alert">
        {message}
      </p>
      <p className="muted">
        Create an app with <code>npm run latchkey -- apps create</code>, then start the demo with{' '}
        <code>VITE_LATCHKEY_APP_ID=…</code> (and <code>VITE_LATCHKEY_API_URL</code> if the server is
        not on http://localhost:8787), or open this page with <code>?appId=…</code>.
      </p>
    </section>
  )
}

/** Shows a provider configuration error (bad app id, no login methods) instead of a blank page. */
export class ErrorBoundary extends Component<{ children: ReactNode }, { error: Error | null }> {
  override state = { error: null as Error | null }
  static getDerivedStateFromError(error: Error) {
    return { error }
  }
  override render() {
    if (this.state.error) return <ConfigError message={this.state.error.message} />
    return this.props.children
  }
}
